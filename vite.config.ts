import { build, defineConfig, minifySync, transformWithOxc, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const apiBase = process.env.API_BASE ?? '/jeecg-boot';
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 8080}`;

export const alias = {
  '@app': dir('./app'),
  '@core': dir('./core'),
  '@shared': dir('./shared'),
  '@renderer': dir('./renderer'),
  '@widgets': dir('./widgets'),
  '@schemas': dir('./schemas'),
  '@server': dir('./server'),
};

/**
 * The antd components the shell and the list pages draw (with everything they import): one chunk for
 * every main-layout page. The rest of antd (Table and its kin: `ANTD_TABLE`; pickers, uploads, images,
 * cascaders, steps, …) is in other chunks, loaded by the pages that use them — about half the size of
 * antd again, which a list page would otherwise download, compile and evaluate. A component the shell
 * or the renderer's list page imports statically must be listed here (else its page loads the others too).
 */
const ANTD_PAGE = new RegExp(
  // The icons (the shell's menu icons, the pages' buttons) are shared with the other chunk: here, so neither waits for it
  // (dayjs, shared too, is in the entry: the React chunk).
  String.raw`node_modules[\\/]@ant-design[\\/]icons[\\/]|` +
  String.raw`node_modules[\\/]antd[\\/]es[\\/](alert|app|avatar|badge|breadcrumb|button|card|checkbox|col|divider|drawer|dropdown|empty|form|grid|input|input-number|layout|list|menu|message|modal|pagination|popconfirm|popover|radio|result|row|select|space|spin|switch|tabs|tag|tooltip|typography)[\\/]`,
);

/**
 * antd's Table and the read-only displays that go with it (progress, statistic, descriptions), with
 * the trees Table's filter menus import: the home page and the monitor pages draw these and nothing
 * else of the rest of antd, so they need not load the date pickers, uploads, cascaders and images.
 */
const ANTD_TABLE = new RegExp(
  String.raw`node_modules[\\/](rc-table|rc-tree|rc-progress|@rc-component[\\/]context)[\\/]|` +
  String.raw`node_modules[\\/]antd[\\/]es[\\/](table|tree|progress|statistic|descriptions)[\\/]`,
);

/**
 * antd's component styles, pre-built for the default theme by scripts/antd-styles.tsx, as the CSS
 * module `virtual:antd-static.css` (main.tsx imports it ahead of the app's CSS, so both are one
 * stylesheet of the build): the browser then skips generating them while the first screen renders
 * (docs/architecture.md, "antd styles"). With them, that theme's map token as `virtual:antd-map-token`
 * (core/theme.ts `withBuiltMapToken`). Empty and null in development, where antd does both itself.
 */
const builtStyles = new Map<string, string>(); // generated once per process and component list
/** `only`: just these components' styles (the light entry's, `scanEntry`); the others are generated in the browser when used. */
export function antdStaticStyles(only?: string[]): Plugin {
  const ids: Record<string, string> = { 'virtual:antd-static.css': '', 'virtual:antd-map-token': 'export default null;' };
  let isBuild = false;
  return {
    name: 'antd-static-styles',
    configResolved: (config) => void (isBuild = config.command === 'build'),
    buildStart() {
      if (!isBuild) return;
      const key = only?.join(',') ?? '';
      if (!builtStyles.has(key))
        builtStyles.set(
          key,
          execFileSync(process.execPath, ['--import', 'tsx', dir('./scripts/antd-styles.tsx')], {
            cwd: dir('.'),
            env: { ...process.env, NODE_ENV: 'production', ANTD_STYLES_ONLY: key },
            maxBuffer: 64 << 20,
            encoding: 'utf8',
          }),
        );
      const { css, mapToken } = JSON.parse(builtStyles.get(key)!) as { css: string; mapToken: unknown };
      ids['virtual:antd-static.css'] = css;
      ids['virtual:antd-map-token'] = `export default ${JSON.stringify(mapToken)};`;
    },
    resolveId: (source) => (Object.hasOwn(ids, source) ? `\0${source}` : undefined),
    load: (resolved) => (resolved.startsWith('\0') && Object.hasOwn(ids, resolved.slice(1)) ? ids[resolved.slice(1)] : undefined),
  };
}

/**
 * core/session/early-requests.ts as an inline script at the very top of index.html's head: it runs while
 * the page is parsed, before the stylesheets (a pending stylesheet holds back any script after it) and
 * long before the entry's module graph has been downloaded and compiled. The server allows it by its
 * hash (server/app.ts).
 */
export async function earlyRequestsScript(base = apiBase, routeOnly = false): Promise<string> {
  const file = dir('./core/session/early-requests.ts');
  const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file, { lang: 'ts' });
  return minifySync(file.replace(/\.ts$/, '.js'), code.replaceAll('__API_BASE__', JSON.stringify(base)).replaceAll('__EARLY_ROUTE_ONLY__', String(routeOnly))).code.trim();
}

/** `routeOnly`: a light entry's page (no menu or notices: only GET /schema/route). */
function earlyRequests(routeOnly = false): Plugin {
  return {
    name: 'early-requests',
    transformIndexHtml: {
      order: 'post',
      handler: async () => [{ tag: 'script', children: await earlyRequestsScript(apiBase, routeOnly), injectTo: 'head-prepend' }],
    },
  };
}

/** The favicon (a 214-byte SVG) as a data URL in index.html: one request fewer on every visit. */
function inlineFavicon(): Plugin {
  const href = '/app/assets/logo.svg';
  return {
    name: 'inline-favicon',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace(`href="${href}"`, `href="data:image/svg+xml,${encodeURIComponent(readFileSync(dir(`.${href}`), 'utf8').trim())}"`),
    },
  };
}

/**
 * Every built script, stylesheet and SVG of 1 kB or more also as `.br` and `.gz` beside it, served by the
 * server in their place to browsers that accept them (`preCompressed` in server/app.ts): the bundle
 * budgets are gzip sizes; a list page's first visit downloads ~0.4 MB instead of ~1.9 MB (all assets
 * 5.7 → 1.5 MB). Brotli at quality 7 (quality 11 saves ~8 % more and takes ~25× as long, on every build),
 * except the files every signed-in first visit downloads (FIRST_VISIT: the entry, boot, React, antd's entry part,
 * the renderer with antd-page, the stylesheet; ~2 MB, ~3 s more of build CPU): quality 11 there saves ~38 kB,
 * ~0.2 s of a phone's first visit at 1.6 Mbit/s (issue 30 bench); gzip at level 9 for browsers that send no `br` (Chrome asks for it over HTTPS and on localhost only).
 * A compressed file no smaller than its source is not written.
 */
const FIRST_VISIT = /^assets\/(index|boot|react|antd|antd-page|renderer|scan|scan-react|scan-antd)-[\w-]{8}\.(js|css)$/;

function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle({ dir: out }, bundle) {
      const files = Object.values(bundle).filter((f) => /\.(js|css|svg)$/.test(f.fileName));
      await Promise.all(
        files.map(async (f) => {
          const raw = Buffer.from(f.type === 'chunk' ? f.code : f.source);
          if (raw.length < 1024) return;
          const [b, g] = await Promise.all([
            br(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: FIRST_VISIT.test(f.fileName) ? 11 : 7, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gz(raw, { level: 9 }),
          ]);
          const path = join(out!, f.fileName);
          if (b.length < raw.length) writeFileSync(`${path}.br`, b);
          if (g.length < raw.length) writeFileSync(`${path}.gz`, g);
        }),
      );
    },
  };
}

/**
 * React Router 7's package exports name only its development build (warnings, checks, ~20 % more code
 * to evaluate); production builds take its production files (same API, self-contained).
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: dir('./node_modules/react-router/dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: dir('./node_modules/react-router/dist/production/dom-export.mjs') },
];

/**
 * The light entry of 扫码听课 (scan.html → app/scan.tsx; docs/decisions.md): built right after the main build
 * into the same dist/, with chunks of its own — only the React, antd and app code that page draws (the
 * widget included), none of the main shell's: few files, all named by its HTML, so they download in
 * parallel from the start. The server sends dist/scan.html for a direct visit to /lecture/scan (server/app.ts).
 */
const SCAN_COMPONENTS = ['Alert', 'Button', 'Input', 'Modal', 'Result', 'Spin', 'Tag'];

function scanEntry(shared: () => UserConfig): Plugin {
  return {
    name: 'scan-entry',
    apply: 'build',
    async closeBundle() {
      const base = shared();
      await build({
        ...base,
        configFile: false,
        root: dir('.'),
        // antd's pre-built styles of the components this page draws only (~1/5 of the shell's): the rest, if ever
        // drawn (a dialog of a fallback page), are generated in the browser as usual.
        plugins: [react(), antdStaticStyles(SCAN_COMPONENTS), earlyRequests(true), inlineFavicon(), precompress()],
        build: {
          ...base.build,
          emptyOutDir: false,
          rolldownOptions: {
            input: dir('./scan.html'),
            // The widget is imported by the entry and, lazily, by the widget registry: expected here (app/scan.tsx).
            checks: { ineffectiveDynamicImport: false },
            output: {
              codeSplitting: {
                groups: [
                  { name: 'scan-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|dayjs|jotai)[\\/]/, priority: 40 },
                  { name: 'scan-antd', test: /node_modules[\\/](antd|@ant-design|rc-[^\\/]+|@rc-component)[\\/]/, tags: ['$initial'], priority: 30 },
                  // The rest of what the page needs (the app's modules, axios) in one file: on HTTP/1.1 with a 150 ms round
                  // trip, a file more is a round trip more once the browser's six connections are busy.
                  { name: 'scan-app', test: /./, tags: ['$initial'], priority: 20 },
                ],
              },
            },
          },
        },
      });
    },
  };
}

export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    antdStaticStyles(),
    earlyRequests(),
    inlineFavicon(),
    precompress(),
    scanEntry(() => ({
      mode,
      logLevel: 'warn',
      resolve: { alias: [...(mode === 'production' ? reactRouterProduction : []), ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement }))] },
      define: { __API_BASE__: JSON.stringify(apiBase) },
      build: { outDir: 'dist', chunkSizeWarningLimit: 1500, cssMinify: false },
    })),
  ],
  resolve: { alias: [...(mode === 'production' ? reactRouterProduction : []), ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement }))] },
  define: { __API_BASE__: JSON.stringify(apiBase) },
  server: {
    proxy: { [apiBase]: { target: apiTarget, ws: true, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    // antd's pre-built styles stay as antd wrote them (the CSS minifier rounds numbers: line heights moved by
    // sub-pixels); the files are sent compressed.
    cssMinify: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // app/boot.ts in a chunk of its own, imported first by the entry: its requests leave before the antd and app
            // chunks evaluate. With it: Vite's dynamic-import preload helper and the password rules the main layout
            // shares with lazy pages (each would otherwise be a request of its own).
            { name: 'boot', test: /[\\/]app[\\/]boot\.ts$|preload-helper|[\\/]shared[\\/]password-policy\.ts$/, priority: 50 },
            // The main layout (app/layouts, its router modules) and the list page's renderer in one chunk — every signed-in
            // page loads both at boot (app/boot.ts) — with the page warmer (renderer/warm.ts, loaded at boot for a list page's
            // first request), the modules they share, and the small modules the main layout shares with them (the lazy
            // overlays, the scroll-edge check): ListPage (with its controller and views,
            // renderer/list/) is also imported by the lazy online page, which would split it off, and a shared module alone
            // would be a request of its own.
            { name: 'renderer', test: /[\\/](app[\\/]layouts[\\/](?!UserLayout)[^\\/]+\.tsx?|app[\\/]router[\\/](resolve|static-routes|lookup)\.tsx?|app[\\/]screens\.ts|core[\\/]ui[\\/](moveFocus|LazyOverlay|useStableCallback|hiddenBeyond)\.tsx?|core[\\/](listQuery|dict)\.ts|shared[\\/](list-request|urls|format)\.ts|renderer[\\/](warm|scope|expr|loader|registry|polling)\.ts|renderer[\\/]useActions\.tsx|renderer[\\/](kinds|actions|list)[\\/][^\\/]+\.tsx?|renderer[\\/](index|SchemaPage|KindPage|ListPage|DataTable|cells|permissions|dialogAction)\.tsx?|widgets[\\/]query[\\/]JSuperQuery\.tsx)$/, includeDependenciesRecursively: false, priority: 43 },
            // The widget registry and its lazy registrations (~2 kB): app/boot.ts asks for it with the early route answer,
            // so a page that is one widget (扫码听课) loads that widget's code beside the renderer, not after it.
            { name: 'widgets', test: /[\\/]widgets[\\/](index|registry)\.ts$/, includeDependenciesRecursively: false, priority: 44 },
            // React with the entry's other small libraries (dayjs, jotai's React bindings): one request fewer.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|dayjs|jotai)[\\/]/, priority: 40 },
            // Only the antd the entry (shell + login) needs; the rest is split by use, so the login route stays small.
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|rc-[^\\/]+|@rc-component)[\\/]/, tags: ['$initial'], priority: 30 },
            { name: 'vendor', test: /node_modules/, tags: ['$initial'], priority: 25 },
            { name: 'antd-page', test: ANTD_PAGE, priority: 23 },
            { name: 'antd-table', test: ANTD_TABLE, priority: 22 },
            // The rest of antd in one lazy chunk: otherwise the formily group pulls in the antd parts it uses, and list pages load Formily.
            { name: 'antd-more', test: /node_modules[\\/](antd|@ant-design|rc-[^\\/]+|@rc-component)[\\/]/, priority: 21 },
            { name: 'aggrid', test: /node_modules[\\/]ag-grid-[^\\/]+[\\/]/, priority: 20 },
            { name: 'formily', test: /node_modules[\\/]@formily[\\/]/, priority: 10 },
            // echarts as the app registers it (core/ui/echarts.ts), one chunk with the modules it takes.
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]|[\\/]core[\\/]ui[\\/]echarts\.ts$/, priority: 10 },
          ],
        },
      },
    },
  },
}));
