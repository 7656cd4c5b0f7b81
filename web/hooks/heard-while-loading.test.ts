// The keeper of changes heard while a read travels: kept only during a read, applied again in order to
// what the read brings, and forgotten when the read fails.
import { describe, expect, test } from 'bun:test'
import { createHeardWhileLoading } from './heard-while-loading.ts'

const add = (item: string) => (list: string[]) => (list.includes(item) ? list : [...list, item])
const drop = (item: string) => (list: string[]) => list.filter((other) => other !== item)

describe('changes heard while loading', () => {
  test('kept during a read and applied again, in order, to what it brings', () => {
    const keeper = createHeardWhileLoading<string[]>()
    expect(keeper.heard(add('before'))([])).toEqual(['before'])
    keeper.start()
    keeper.heard(add('new'))
    keeper.heard(drop('deleted'))
    keeper.heard(add('gone'))
    keeper.heard(drop('gone'))
    // The read was taken before all of them.
    expect(keeper.finish(['deleted', 'old'])).toEqual(['old', 'new'])
    // Nothing is kept between reads: a later read gets only its own.
    keeper.heard(add('between'))
    keeper.start()
    expect(keeper.finish(['x'])).toEqual(['x'])
  })

  test('a failed read forgets what it kept; a new read starts empty', () => {
    const keeper = createHeardWhileLoading<string[]>()
    keeper.start()
    keeper.heard(add('a'))
    keeper.drop()
    expect(keeper.finish([])).toEqual([])
    keeper.start()
    keeper.heard(add('b'))
    keeper.start()
    expect(keeper.finish([])).toEqual([])
  })
})
