import { describe, expect, test } from 'bun:test'
import { nextActiveIndex, scrollTopToReveal, visibleRange } from './windowing.ts'

describe('visibleRange', () => {
  const base = { rowHeight: 100, viewportHeight: 450, overscan: 2 }

  test('at the top: the visible rows plus the overscan below', () => {
    // Rows 0..4 show (row 4 partly), two more below.
    expect(visibleRange({ ...base, scrollTop: 0, count: 10_000 })).toEqual({ start: 0, end: 7 })
  })

  test('in the middle: overscan on both sides, independent of the list length', () => {
    // Visible 500050..500499: rows 5000..5004.
    expect(visibleRange({ ...base, scrollTop: 500_050, count: 10_000 })).toEqual({ start: 4998, end: 5007 })
  })

  test('at the end: clamped to the last row', () => {
    expect(visibleRange({ ...base, scrollTop: 10_000 * 100 - 450, count: 10_000 })).toEqual({ start: 9993, end: 10_000 })
    // A scroll position past the end (the list just shrank) still renders the last rows.
    expect(visibleRange({ ...base, scrollTop: 5_000_000, count: 10 })).toEqual({ start: 7, end: 10 })
  })

  test('an empty list or no height renders nothing; a negative scroll (overscroll bounce) is the top', () => {
    expect(visibleRange({ ...base, scrollTop: 0, count: 0 })).toEqual({ start: 0, end: 0 })
    expect(visibleRange({ ...base, rowHeight: 0, scrollTop: 0, count: 5 })).toEqual({ start: 0, end: 0 })
    expect(visibleRange({ ...base, scrollTop: -80, count: 3 })).toEqual({ start: 0, end: 3 })
  })
})

describe('scrollTopToReveal', () => {
  const view = { viewportHeight: 450, rowHeight: 100 }
  test('a row above the view scrolls it to the top, a row below to the bottom, a visible one stays', () => {
    expect(scrollTopToReveal(2, { ...view, scrollTop: 500 })).toBe(200)
    expect(scrollTopToReveal(9, { ...view, scrollTop: 500 })).toBe(550)
    expect(scrollTopToReveal(6, { ...view, scrollTop: 500 })).toBe(500)
    // Row 9 partly visible at the bottom (900..1000 with the view 500..950): moved up just enough.
    expect(scrollTopToReveal(9, { ...view, scrollTop: 520 })).toBe(550)
  })
})

describe('nextActiveIndex', () => {
  test('arrows step and stop at the ends, Home/End jump, pages move by a screenful', () => {
    expect(nextActiveIndex('ArrowDown', -1, 5, 3)).toBe(0)
    expect(nextActiveIndex('ArrowDown', 4, 5, 3)).toBe(4)
    expect(nextActiveIndex('ArrowUp', 0, 5, 3)).toBe(0)
    expect(nextActiveIndex('ArrowUp', 3, 5, 3)).toBe(2)
    expect(nextActiveIndex('Home', 3, 5, 3)).toBe(0)
    expect(nextActiveIndex('End', 0, 5, 3)).toBe(4)
    expect(nextActiveIndex('PageDown', 0, 100, 8)).toBe(8)
    expect(nextActiveIndex('PageDown', 95, 100, 8)).toBe(99)
    expect(nextActiveIndex('PageUp', 5, 100, 8)).toBe(0)
  })

  test('other keys and empty lists move nothing', () => {
    expect(nextActiveIndex('a', 1, 5, 3)).toBeUndefined()
    expect(nextActiveIndex('ArrowDown', -1, 0, 3)).toBeUndefined()
  })
})
