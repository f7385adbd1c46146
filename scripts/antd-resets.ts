/**
 * antd 5 gives every component's styles a box-sizing reset of its own, keyed on class-name prefixes:
 * `:where(.css-h)[class^="ant-table"] [class*=" ant-table"]`, `…::before`, `…::after`, and so on —
 * about 350 selectors for the first screens' components. A selector whose last part is an attribute
 * test is tried on every element that has a class, so the browser tested each element of a page
 * against all of them on every style recalculation (two thirds of the selector tests on a 50-row list
 * page). In the pre-built stylesheet (scripts/antd-styles.tsx) those resets become one rule for every
 * `ant-` element, at zero specificity so that any declaration of antd's own still wins, and the
 * component roots' font resets are keyed on the theme's hash class instead (same elements, same
 * specificity). Styles antd generates at run time keep their own resets.
 */

/** The top-level blocks of a stylesheet (rules and at-rules), split at depth-0 closing braces outside strings. */
export function topLevelBlocks(css: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let start = 0;
  let quote = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      blocks.push(css.slice(start, i + 1));
      start = i + 1;
    }
  }
  const rest = css.slice(start);
  if (rest.trim()) blocks.push(rest);
  return blocks;
}

const PREFIX = String.raw`\[class[\^*]=" ?ant-[a-z0-9-]+"\]`;
const HASH = String.raw`:where\((\.css-[a-z0-9-]+)\)`;
/** `:where(.h).ant-x [class^="ant-x"]`, `:where(.h)[class^="ant-x"] [class*=" ant-x"]`, `:where(.h)[class^="ant-x"]`, each with or without ::before/::after. */
const RESET = new RegExp(String.raw`^${HASH}(?:\.ant-[a-z0-9-]+ ${PREFIX}|${PREFIX}(?: ${PREFIX})?)(?:::before|::after)?$`);
/** A component root: `:where(.h)[class^="ant-x"]`, optionally with a pseudo-element. */
const ROOT = new RegExp(String.raw`^${HASH}(${PREFIX})((?:::before|::after)?)$`);

export const UNIFIED_RESET =
  ':where([class^="ant-"],[class*=" ant-"]),:where([class^="ant-"],[class*=" ant-"])::before,:where([class^="ant-"],[class*=" ant-"])::after{box-sizing:border-box;}';

export function leanResets(css: string): string {
  const out = topLevelBlocks(css).map((block) => {
    const open = block.indexOf('{');
    const selectors = block.slice(0, open).trim().split(',');
    const body = block.slice(open);
    if (selectors[0]!.startsWith('@')) return block;
    if (body === '{box-sizing:border-box;}' && selectors.every((s) => RESET.test(s))) return '';
    // :where(.h)[class^="ant-x"] → .h:where([class^="ant-x"]): the same elements at the same specificity, looked up by class.
    if (selectors.every((s) => ROOT.test(s))) return selectors.map((s) => s.replace(ROOT, '$1:where($2)$3')).join(',') + body;
    return block;
  });
  return UNIFIED_RESET + out.join('');
}
