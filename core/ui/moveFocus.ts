/**
 * Moves the focus `step` places along `items` from the focused one, stopping at either end (from
 * none focused: to the first). The keyboard of the side menu's entries and of the page tabs.
 */
export function moveFocus(items: HTMLElement[], step: number) {
  const at = items.indexOf(document.activeElement as HTMLElement);
  items[Math.max(0, Math.min(items.length - 1, at + step))]?.focus();
}
