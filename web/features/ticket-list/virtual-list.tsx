// A windowed list with a fixed row height: only the rows in view (plus a few) are in the DOM, so ten
// thousand tickets scroll as smoothly as ten. A grid of one column for assistive technology (rows can
// hold buttons, which an option of a listbox may not): aria-rowcount and aria-rowindex tell where a row
// is in the whole list. Arrow keys, Page Up/Down, Home and End move between rows (one tab stop); Enter
// activates the row.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { nextActiveIndex, scrollTopToReveal, visibleRange } from './windowing.ts'

export type VirtualListProps<Item> = {
  items: readonly Item[]
  rowHeight: number
  label: string
  idPrefix: string
  itemKey: (item: Item) => string | number
  renderRow: (item: Item, index: number) => ReactNode
  rowClassName?: (item: Item, index: number) => string
  /** Whether the row is the selected one (aria-selected). */
  isSelected?: (item: Item) => boolean
  onActivate: (item: Item, index: number) => void
  /** Called when the rendered window comes near the end (to load the next page). */
  onNearEnd?: () => void
  /** Shown under the last row (a loading indicator). */
  footer?: ReactNode
  overscan?: number
}

const FOOTER_HEIGHT = 40

export function VirtualList<Item>({
  items,
  rowHeight,
  label,
  idPrefix,
  itemKey,
  renderRow,
  rowClassName,
  isSelected,
  onActivate,
  onNearEnd,
  footer,
  overscan = 6,
}: VirtualListProps<Item>) {
  const scroller = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewportHeight, setViewportHeight] = useState(600)
  const [activeIndex, setActiveIndex] = useState(-1)
  const focusPending = useRef(false)
  const count = items.length

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    setViewportHeight(element.clientHeight)
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const { start, end } = visibleRange({ scrollTop, viewportHeight, rowHeight, count, overscan })

  // The next page is asked for while a screenful of rows is still left to show.
  const nearEnd = end >= count - Math.ceil(viewportHeight / rowHeight)
  const nearEndRef = useRef(onNearEnd)
  nearEndRef.current = onNearEnd
  useEffect(() => {
    if (nearEnd) nearEndRef.current?.()
  }, [nearEnd, count])

  // The active row stays in range when the list shrinks.
  useEffect(() => {
    if (activeIndex >= count) setActiveIndex(count - 1)
  }, [activeIndex, count])

  useEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
    scroller.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`)?.focus({ preventScroll: true })
  })

  const moveTo = useCallback(
    (index: number) => {
      const element = scroller.current
      if (!element) return
      const top = scrollTopToReveal(index, { scrollTop: element.scrollTop, viewportHeight: element.clientHeight, rowHeight })
      if (top !== element.scrollTop) {
        element.scrollTop = top
        setScrollTop(top)
      }
      focusPending.current = true
      setActiveIndex(index)
    },
    [rowHeight],
  )

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement
    const onRow = target.getAttribute('role') === 'row'
    if (event.key === 'Enter' && onRow) {
      const index = Number(target.dataset.index)
      const item = items[index]
      if (item !== undefined) {
        event.preventDefault()
        onActivate(item, index)
      }
      return
    }
    const rowIndex = Number(target.closest<HTMLElement>('[role="row"]')?.dataset.index ?? activeIndex)
    const next = nextActiveIndex(event.key, rowIndex, count, Math.floor(viewportHeight / rowHeight) - 1)
    if (next === undefined) return
    event.preventDefault()
    moveTo(next)
  }

  // One tab stop: the active row when it is rendered, otherwise the first rendered one.
  const tabStop = activeIndex >= start && activeIndex < end ? activeIndex : start
  const rows: ReactNode[] = []
  for (let index = start; index < end; index++) {
    const item = items[index]!
    const selected = isSelected?.(item) ?? false
    rows.push(
      <div
        key={itemKey(item)}
        id={`${idPrefix}-row-${index}`}
        role="row"
        aria-rowindex={index + 1}
        aria-selected={selected}
        data-index={index}
        tabIndex={index === tabStop ? 0 : -1}
        className={`vlist-row ${rowClassName?.(item, index) ?? ''}`}
        style={{ top: index * rowHeight, height: rowHeight }}
        onFocus={(event) => {
          if (event.target === event.currentTarget) setActiveIndex(index)
        }}
        onClick={(event) => {
          // Buttons inside the row act on their own.
          if ((event.target as HTMLElement).closest('button, a, [role="button"]')) return
          setActiveIndex(index)
          onActivate(item, index)
        }}
      >
        <div role="gridcell" className="vlist-cell">
          {renderRow(item, index)}
        </div>
      </div>,
    )
  }

  return (
    <div
      ref={scroller}
      className="vlist"
      role="grid"
      aria-label={label}
      aria-rowcount={count}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div className="vlist-canvas" role="presentation" style={{ height: count * rowHeight + (footer ? FOOTER_HEIGHT : 0) }}>
        {rows}
        {footer ? (
          <div className="vlist-footer" role="presentation" style={{ top: count * rowHeight, height: FOOTER_HEIGHT }}>
            {footer}
          </div>
        ) : null}
      </div>
    </div>
  )
}
