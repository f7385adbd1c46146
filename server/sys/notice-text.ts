/**
 * User text is text (issue 27 rule 4). Notice and message bodies are shown as HTML (the notice
 * centre renders `msgContent`), so every value a user typed — names, titles, return reasons,
 * comments, opinions — is interpolated through `noticeHtml`, which HTML-escapes it; only the literal
 * parts of the template (written by us) stay markup. Titles are shown as plain text and need no
 * escaping. Administrators' announcement bodies are the one rich-text exception and go through the
 * whitelist sanitiser instead (server/sys/announcement.ts).
 */
export const escapeHtml = (v: unknown): string =>
  (v === null || v === undefined ? '' : String(v)).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Tagged template: `noticeHtml\`退回原因：${reason}\`` escapes `reason`, keeps the literal text. */
export function noticeHtml(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += escapeHtml(v) + (strings[i + 1] ?? '');
  });
  return out;
}
