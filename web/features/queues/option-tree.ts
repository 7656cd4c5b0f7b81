// The option editor's tree arithmetic: finding a node, counting a subtree, and reordering siblings.
// The menu order is the option number the customer types (the server sorts by it and keeps it unique
// among siblings), so moving an option swaps its number with its neighbour's, through a free number.
import type { QueueOptionNode } from '../../../src/modules/queue-options/model.ts'

export type OptionNode = Omit<QueueOptionNode, 'createdAt' | 'updatedAt' | 'children'> & { children: OptionNode[] }

/** The siblings list holding the option (the roots for a root option). */
export function siblingsOf(tree: readonly OptionNode[], optionId: number): readonly OptionNode[] | undefined {
  if (tree.some((node) => node.id === optionId)) return tree
  for (const node of tree) {
    const found = siblingsOf(node.children, optionId)
    if (found) return found
  }
  return undefined
}

/** How many options sit under this one, at any depth. */
export function descendantCount(node: OptionNode): number {
  return node.children.reduce((total, child) => total + 1 + descendantCount(child), 0)
}

const MAX_OPTION_NUMBER = 999

/** A number no sibling uses: after the highest, or the lowest gap once 999 is reached. */
export function freeNumber(siblings: readonly OptionNode[]): string {
  const used = new Set(siblings.map((sibling) => Number(sibling.option)))
  const highest = Math.max(0, ...used)
  if (highest < MAX_OPTION_NUMBER) return String(highest + 1)
  for (let candidate = 1; candidate <= MAX_OPTION_NUMBER; candidate++) if (!used.has(candidate)) return String(candidate)
  throw new Error('no free option number')
}

export type NumberChange = { id: number; option: string }

/**
 * The PUTs that move an option one place up or down among its siblings: it parks on a free number,
 * the neighbour takes its number, then it takes the neighbour's. Empty when it cannot move that way.
 */
export function moveChanges(siblings: readonly OptionNode[], optionId: number, direction: 'up' | 'down'): NumberChange[] {
  const index = siblings.findIndex((sibling) => sibling.id === optionId)
  const neighbour = siblings[direction === 'up' ? index - 1 : index + 1]
  const moving = siblings[index]
  if (index < 0 || !moving || !neighbour) return []
  return [
    { id: moving.id, option: freeNumber(siblings) },
    { id: neighbour.id, option: moving.option },
    { id: moving.id, option: neighbour.option },
  ]
}
