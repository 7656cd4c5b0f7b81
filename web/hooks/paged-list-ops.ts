// The changes a paged list takes between its pages (a realtime frame, a request's answer), as values:
// applied at once, and applied again to a first page that was on its way meanwhile, since the server
// may have read that page before them. Where both copies of an item carry updatedAt, the newer wins.

export type ListOp<Item> = { kind: 'upsert'; item: Item; prepend: boolean } | { kind: 'patch'; item: Item } | { kind: 'remove'; id: unknown }

const stamp = (item: unknown): number | undefined => {
  const value = (item as { updatedAt?: unknown }).updatedAt
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined
  const time = new Date(value).getTime()
  return Number.isNaN(time) ? undefined : time
}

/** The held copy is strictly newer than the incoming one (both stamped): the incoming one is stale. */
export function isStale(held: unknown, incoming: unknown): boolean {
  const heldAt = stamp(held)
  const incomingAt = stamp(incoming)
  return heldAt !== undefined && incomingAt !== undefined && heldAt > incomingAt
}

export function applyOp<Item extends { id: unknown }>(items: Item[], op: ListOp<Item>): Item[] {
  if (op.kind === 'remove') return items.filter((item) => item.id !== op.id)
  const index = items.findIndex((existing) => existing.id === op.item.id)
  if (index === -1) {
    // A patch only refreshes a row that is shown (a row not loaded yet arrives with its page).
    if (op.kind === 'patch') return items
    return op.prepend ? [op.item, ...items] : [...items, op.item]
  }
  if (isStale(items[index], op.item)) return items
  const next = items.slice()
  next[index] = op.item
  return next
}

/** A first page arrived: it replaces the list, then the changes heard while it travelled apply again. */
export function pageWithHeard<Item extends { id: unknown }>(page: Item[], heard: readonly ListOp<Item>[]): Item[] {
  return heard.reduce((items, op) => applyOp(items, op), page)
}

/**
 * A next page arrived: the changes heard while it travelled refresh or drop its rows (an upsert counts
 * as a refresh there: a new row is placed by the live path, not in the middle of a later page).
 */
export function nextPageWithHeard<Item extends { id: unknown }>(page: Item[], heard: readonly ListOp<Item>[]): Item[] {
  return heard.reduce((items, op) => applyOp(items, op.kind === 'upsert' ? { kind: 'patch', item: op.item } : op), page)
}
