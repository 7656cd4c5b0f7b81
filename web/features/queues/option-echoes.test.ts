// The option editor's sorting of the changes it hears: its own echoes (before or after the server's
// answer), changes heard while its own change runs, and everybody else's.
import { describe, expect, test } from 'bun:test'
import { optionsChangeFor, OwnOptionChanges } from './option-echoes.ts'

describe('OwnOptionChanges', () => {
  test("an echo heard after the server's answer is the editor's own, once", () => {
    const own = new OwnOptionChanges()
    own.start()
    own.confirmed({ action: 'update', optionIds: [5] })
    expect(own.finish()).toBe(false)
    expect(own.heard({ action: 'update', optionIds: [5] })).toBe('own')
    // The same change again is someone else's.
    expect(own.heard({ action: 'update', optionIds: [5] })).toBe('other')
  })

  test('an echo heard before the answer asks for one more read, and is not awaited afterwards', () => {
    const own = new OwnOptionChanges()
    own.start()
    expect(own.heard({ action: 'delete', optionIds: [3, 2] })).toBe('after')
    own.confirmed({ action: 'delete', optionIds: [2, 3] })
    expect(own.finish()).toBe(true)
    expect(own.finish()).toBe(false)
    expect(own.heard({ action: 'delete', optionIds: [2, 3] })).toBe('other')
  })

  test("a move's three edits are three echoes, matched one by one", () => {
    const own = new OwnOptionChanges()
    own.start()
    for (const id of [7, 8, 7]) own.confirmed({ action: 'update', optionIds: [id] })
    own.finish()
    expect([7, 8, 7, 7].map((id) => own.heard({ action: 'update', optionIds: [id] }))).toEqual(['own', 'own', 'own', 'other'])
  })

  test("someone else's change while idle is applied; during an own change it waits for its end", () => {
    const own = new OwnOptionChanges()
    expect(own.heard({ action: 'create', optionIds: [9] })).toBe('other')
    own.start()
    own.start()
    expect(own.heard({ action: 'create', optionIds: [10] })).toBe('after')
    expect(own.finish()).toBe(false)
    expect(own.finish()).toBe(true)
  })

  test('only a bounded number of unheard echoes is kept', () => {
    const own = new OwnOptionChanges()
    own.start()
    for (let id = 1; id <= 25; id++) own.confirmed({ action: 'update', optionIds: [id] })
    own.finish()
    expect(own.heard({ action: 'update', optionIds: [1] })).toBe('other')
    expect(own.heard({ action: 'update', optionIds: [25] })).toBe('own')
  })
})

describe('optionsChangeFor', () => {
  test("only an update of this queue that carries an options part", () => {
    const options = { action: 'create' as const, optionIds: [1] }
    expect(optionsChangeFor({ action: 'update', queue: { id: 4 }, options }, 4)).toEqual(options)
    expect(optionsChangeFor({ action: 'update', queue: { id: 5 }, options }, 4)).toBeUndefined()
    expect(optionsChangeFor({ action: 'update', queue: { id: 4 } }, 4)).toBeUndefined()
    expect(optionsChangeFor({ action: 'delete', queueId: 4 }, 4)).toBeUndefined()
  })
})
