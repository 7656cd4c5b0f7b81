// The option tree of a queue, worked out in memory from one flat list of its options.
import type { QueueOption, QueueOptionNode } from './model.ts'

/** Nests a queue's options under their parents, keeping the list's (menu) order among siblings. */
export function buildOptionTree(options: readonly QueueOption[]): QueueOptionNode[] {
  const nodes = new Map<number, QueueOptionNode>(options.map((option) => [option.id, { ...option, children: [] }]))
  const roots: QueueOptionNode[] = []
  for (const option of options) {
    const node = nodes.get(option.id)!
    const parent = option.parentId === null ? undefined : nodes.get(option.parentId)
    if (parent) parent.children.push(node)
    else roots.push(node)
  }
  return roots
}

/** The option and everything under it, the option first. */
export function subtreeIds(options: readonly QueueOption[], rootId: number): number[] {
  const childrenOf = new Map<number, number[]>()
  for (const option of options) {
    if (option.parentId === null) continue
    const siblings = childrenOf.get(option.parentId)
    if (siblings) siblings.push(option.id)
    else childrenOf.set(option.parentId, [option.id])
  }
  const ids: number[] = []
  const pending = [rootId]
  const seen = new Set<number>()
  while (pending.length > 0) {
    const id = pending.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    ids.push(id)
    pending.push(...(childrenOf.get(id) ?? []))
  }
  return ids
}
