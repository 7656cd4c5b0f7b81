// Every declared domain event has a listener once the app is composed: an event nobody hears is
// either dead code or a reaction someone forgot to wire (docs/architecture.md, "Domain events").
import { expect, test } from 'bun:test'
import { domainEventNames } from '../../src/modules/events.ts'
import { createTestContext } from '../helpers/context.ts'

const context = await createTestContext()

test('every declared domain event has at least one listener', () => {
  const listened = new Set(context.deps.bus.listened())
  expect(domainEventNames.length).toBeGreaterThan(10)
  expect(domainEventNames.filter((name) => !listened.has(name))).toEqual([])
})
