/**
 * ESLint rule `layers/direction`: imports run one way, shared ← core ← widgets ← renderer ← app, and the
 * server imports only shared (docs/architecture.md, "Layers"). Every import, re-export, dynamic import and
 * `vi.mock` path is resolved (relative paths and the `@app/ @core/ @shared/ @widgets/ @renderer/ @server/
 * @schemas/` aliases) to its top-level folder and checked against the importing file's folder. There is no
 * exceptions list: a screen or helper in the wrong layer moves, or gets its dependency from a lower one.
 */
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** What each layer may import (besides npm packages and itself). */
export const ALLOWED = {
  shared: [],
  core: ['shared'],
  widgets: ['shared', 'core'],
  renderer: ['shared', 'core', 'widgets'],
  app: ['shared', 'core', 'widgets', 'renderer', 'schemas'],
  server: ['shared', 'schemas'],
};

const ALIASES = { '@app/': 'app', '@core/': 'core', '@shared/': 'shared', '@widgets/': 'widgets', '@renderer/': 'renderer', '@server/': 'server', '@schemas/': 'schemas' };

const layerOfFile = (file) => {
  const rel = relative(ROOT, file);
  if (rel.startsWith('..')) return null;
  return rel.split(sep)[0];
};

function targetLayer(spec, file) {
  for (const [a, layer] of Object.entries(ALIASES)) if (spec.startsWith(a)) return layer;
  if (spec.startsWith('.')) return layerOfFile(resolve(dirname(file), spec));
  return null; // a package
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layer direction shared ← core ← widgets ← renderer ← app; server → shared' },
    schema: [],
    messages: { against: '{{from}}/ may not import from {{to}}/ (allowed: {{allowed}}). Move the code to a lower layer or pass it in from above.' },
  },
  create(context) {
    const file = context.filename;
    const from = layerOfFile(file);
    if (!from || !(from in ALLOWED)) return {};
    // A test or story beside the code it tests may also use the test helpers.
    const allowed = /\.(test|stories)\.tsx?$/.test(file) ? [...ALLOWED[from], 'tests'] : ALLOWED[from];
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const to = targetLayer(source.value, file);
      if (!to || to === from) return;
      if (allowed.includes(to)) return;
      context.report({ node, messageId: 'against', data: { from, to, allowed: allowed.join(', ') || 'none' } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source.type === 'Literal' ? n.source : null),
      TSImportType: (n) => check(n, n.argument?.literal ?? n.argument),
      CallExpression: (n) => {
        // vi.mock('…') / require('…')
        const c = n.callee;
        const isMock = c.type === 'MemberExpression' && c.object.name === 'vi' && ['mock', 'doMock', 'importActual'].includes(c.property.name);
        const isRequire = c.type === 'Identifier' && c.name === 'require';
        if ((isMock || isRequire) && n.arguments[0]?.type === 'Literal') check(n, n.arguments[0]);
      },
    };
  },
};

export default { rules: { direction: rule } };
