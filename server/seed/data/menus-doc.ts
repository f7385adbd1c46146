import { pathToFileURL } from 'node:url';
import { MENU_TREE, ROLES, STANDARD_BUTTONS, type MenuSeed } from './menus.js';

/** docs/menus.md, generated from the menu tree and the role rules (run this file to print it). */
export function menusMarkdown(): string {
  const rows: string[] = [];
  const walk = (ms: MenuSeed[], parents: string[]) => {
    for (const m of ms) {
      const title = [...parents, m.name].join(' / ');
      const buttons = [...new Set([...(m.crud ? STANDARD_BUTTONS : []), ...(m.buttons ?? [])].map(([s]) => s))];
      rows.push(`| ${title}${m.hidden ? ' (hidden)' : ''} | \`${m.url}\` | \`${m.component ?? ''}\` | ${m.perms ? `\`${m.perms}\`` : ''} | ${buttons.join(', ')} |`);
      if (m.children) walk(m.children, [...parents, m.name]);
    }
  };
  walk(MENU_TREE, []);
  const roles = ROLES.map(
    (r) => `| \`${r.code}\` | ${r.name} | ${r.grants.map((g) => `${g.menus.join(' ')} → ${g.buttons === '*' ? 'all buttons' : g.buttons.join('/')}${g.dataRules?.length ? ` (data rules: ${g.dataRules.join(', ')})` : ''}`).join('; ')} |`,
  );
  return `${INTRO}| menu | path (url) | component | perms prefix | buttons |
|---|---|---|---|---|
${rows.join('\n')}

\`supervisor:report\` is shared by 听课频次 and 听课成绩 (both menu rows carry \`supervisor:report:list\`).

## Roles (seeded grants)

Each rule: screens (their parents come along; \`/x/*\` = every screen under \`/x\`, \`*\` = everything) → buttons
granted on them. Edit \`ROLES\` in \`server/seed/data/menus.ts\`; a changed tree re-runs the menu step, which grants only
newly inserted rows (existing grants are left as administrators set them).

| role code | name | grants (screen → buttons) |
|---|---|---|
${roles.join('\n')}
`;
}

const INTRO = [
  "# Menus, screens and permission codes",
  "",
  "Source of truth: `server/seed/data/menus.ts` (seeded by `server/seed/menus.ts`). This page is generated from it:",
  "`npx tsx server/seed/data/menus-doc.ts > docs/menus.md` (a test fails when it is stale).",
  "",
  "Rules other areas rely on:",
  "",
  "- **Page schemas** are named after `component`: `schemas/pages/<component>.json` (e.g. `schemas/pages/supervisor/TermList.json`).",
  "  A `component` with neither a page schema nor a built-in page opens the 页面不存在 page (it names no internal component). Containers use `layouts/RouteView`.",
  "- **Permission codes** are named after the screen's prefix (`perms` column). The menu row of every leaf screen with a prefix",
  "  carries `<prefix>:list` (the screen's read permission; the list/query routes of that screen check it).",
  "  Buttons (menuType 2) carry `<prefix>:<button>`; `crud` screens have the standard buttons",
  "  `add, edit, delete, deleteBatch, queryById, exportXls, importExcel` — exactly the codes the generic CRUD engine checks for an",
  "  entity with `\"permission\": \"<prefix>\"`.",
  "- Screen-specific buttons (e.g. `supervisor:lectureRecord:return`) are listed below; guard your custom routes with them.",
  "  Every code a route declares must be seeded (a test walks the route table): add new codes to `server/seed/data/menus.ts`.",
  "- An entity whose `permission` prefix no screen claims still gets its standard codes, under the hidden menu",
  "  `/isystem/unassigned` (so admin holds them); give it a screen here when one exists.",
  "- Re-seeding is idempotent: the menu step is keyed by a hash of the tree, the roles and the entity prefixes; on change it",
  "  inserts only what is missing (stable ids) and grants the new rows to roles by the rules below.",
  "",
  "## Tree",
  "",
  "",
].join('\n');

// Run directly: print the page.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(menusMarkdown());
