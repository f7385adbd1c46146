/**
 * Whether a sideways-scrolling element has content hidden beyond its left and right edges (1 px of
 * rounding tolerated): the edge shadows of the list table's pinned columns and of the page tab bar.
 */
export function hiddenBeyond(el: HTMLElement): { left: boolean; right: boolean } {
  return { left: el.scrollLeft > 0, right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
}
