import { describe, expect, test } from 'bun:test'
import type { QueueOption } from './model.ts'
import { buildOptionTree, subtreeIds } from './tree.ts'

const at = new Date('2026-01-01T00:00:00Z')
const option = (id: number, parentId: number | null, number: string): QueueOption => ({
  id,
  queueId: 1,
  parentId,
  title: `Option ${id}`,
  message: '',
  option: number,
  createdAt: at,
  updatedAt: at,
})

// 1 -> (2 -> 4), 3; 5 is a second root.
const options = [option(1, null, '1'), option(5, null, '2'), option(2, 1, '1'), option(3, 1, '2'), option(4, 2, '1')]

describe('buildOptionTree', () => {
  test('nests options under their parents, keeping the list order among siblings', () => {
    const tree = buildOptionTree(options)
    const shape = (nodes: ReturnType<typeof buildOptionTree>): unknown => nodes.map((node) => [node.id, shape(node.children)])
    expect(shape(tree)).toEqual([
      [1, [[2, [[4, []]]], [3, []]]],
      [5, []],
    ])
  })

  test('an empty list is an empty tree', () => {
    expect(buildOptionTree([])).toEqual([])
  })
})

describe('subtreeIds', () => {
  test('the option first, then everything below it', () => {
    expect(subtreeIds(options, 1).sort()).toEqual([1, 2, 3, 4])
    expect(subtreeIds(options, 1)[0]).toBe(1)
    expect(subtreeIds(options, 2)).toEqual([2, 4])
    expect(subtreeIds(options, 5)).toEqual([5])
  })

  test('stops on a cycle instead of looping', () => {
    const looped = [option(1, 2, '1'), option(2, 1, '1')]
    expect(subtreeIds(looped, 1).sort()).toEqual([1, 2])
  })
})
