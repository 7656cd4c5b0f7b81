// The arithmetic of a windowed list with a fixed row height: which rows to render for a scroll
// position, and where to scroll so that a row (reached with the keyboard) is fully visible.

export type WindowInput = {
  scrollTop: number
  viewportHeight: number
  rowHeight: number
  count: number
  /** Rows rendered beyond each edge, so a fast scroll does not show blank space for a frame. */
  overscan: number
}

/** The rows to render, [start, end): the visible ones plus the overscan, clamped to the list. */
export function visibleRange({ scrollTop, viewportHeight, rowHeight, count, overscan }: WindowInput): { start: number; end: number } {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 }
  const top = Math.max(0, scrollTop)
  const firstVisible = Math.min(count - 1, Math.floor(top / rowHeight))
  const lastVisible = Math.min(count - 1, Math.floor((top + Math.max(0, viewportHeight) - 1) / rowHeight))
  return { start: Math.max(0, firstVisible - overscan), end: Math.min(count, Math.max(firstVisible, lastVisible) + 1 + overscan) }
}

/** The scrollTop that shows row `index` whole, moving as little as possible (unchanged if it already shows). */
export function scrollTopToReveal(index: number, { scrollTop, viewportHeight, rowHeight }: Pick<WindowInput, 'scrollTop' | 'viewportHeight' | 'rowHeight'>): number {
  const rowTop = index * rowHeight
  const rowBottom = rowTop + rowHeight
  if (rowTop < scrollTop) return rowTop
  if (rowBottom > scrollTop + viewportHeight) return Math.max(0, rowBottom - viewportHeight)
  return scrollTop
}

/** The row the keyboard moves to from `current` (-1 when none is active yet). */
export function nextActiveIndex(key: string, current: number, count: number, pageRows: number): number | undefined {
  if (count === 0) return undefined
  const last = count - 1
  const from = current < 0 ? -1 : Math.min(current, last)
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, from + 1)
    case 'ArrowUp':
      return Math.max(0, from - 1)
    case 'Home':
      return 0
    case 'End':
      return last
    case 'PageDown':
      return Math.min(last, Math.max(0, from) + Math.max(1, pageRows))
    case 'PageUp':
      return Math.max(0, Math.max(0, from) - Math.max(1, pageRows))
    default:
      return undefined
  }
}
