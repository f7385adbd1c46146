/**
 * The renderer's public entry for the app shell. `SchemaPage` draws the page schema whose id is
 * a menu item's `component` (e.g. "system/UserList" → schemas/pages/system/UserList.json, served by
 * GET {API_BASE}/schema/page/system/UserList). `hasPageSchema` tells the router whether one exists.
 * Owned by the renderer work; the shell only imports from here.
 */
export { SchemaPage, hasPageSchema } from './SchemaPage';
