/** The API context path, from API_BASE at build time (default /jeecg-boot). */
declare const __API_BASE__: string;
/** core/session/early-requests.ts: true in a light entry's inline script (vite.config.ts `earlyRequests`). */
declare const __EARLY_ROUTE_ONLY__: boolean;

/** antd's map token of the app's default theme, derived at build time (core/theme.ts `mapTokenOf`; null in development). */
declare module 'virtual:antd-map-token' {
  const built: import('@core/theme').MapTokenOf | null;
  export default built;
}
