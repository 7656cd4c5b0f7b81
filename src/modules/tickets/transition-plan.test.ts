import { describe, expect, test } from 'bun:test'
import { planTicketUpdate, type PlannedTicket } from './transition-plan.ts'

const me = 7
const colleague = 8
const pending: PlannedTicket = { status: 'pending', userId: null, queueId: 1, whatsappId: 10 }
const mine: PlannedTicket = { status: 'open', userId: me, queueId: 1, whatsappId: 10 }
const closed: PlannedTicket = { status: 'closed', userId: colleague, queueId: 1, whatsappId: 10 }

const fieldOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return (error as { details?: { fields?: { field: string }[] } }).details?.fields?.[0]?.field
  }
  return undefined
}

describe('planTicketUpdate', () => {
  test('accept: pending -> open for the caller, or for the user named', () => {
    expect(planTicketUpdate(pending, { status: 'open' }, me)).toMatchObject({ transition: 'accept', after: { status: 'open', userId: me, queueId: 1 } })
    expect(planTicketUpdate(pending, { status: 'open', userId: colleague, queueId: 1 }, me)).toMatchObject({ transition: 'accept', after: { userId: colleague } })
    // A user alone on a waiting ticket assigns it: the same as accepting.
    expect(planTicketUpdate(pending, { userId: colleague }, me).transition).toBe('accept')
  })

  test('return: open -> pending, user cleared', () => {
    expect(planTicketUpdate(mine, { status: 'pending', userId: null }, me)).toMatchObject({ transition: 'return', after: { status: 'pending', userId: null, queueId: 1 } })
    expect(planTicketUpdate(mine, { userId: null }, me).transition).toBe('return')
  })

  test('close keeps the queue and the user (or takes the closer), clears the integration fields, ignores userId and queueId', () => {
    expect(planTicketUpdate(mine, { status: 'closed', userId: colleague, queueId: 2 }, me)).toMatchObject({
      transition: 'close',
      after: { status: 'closed', userId: me, queueId: 1 },
      integration: { useIntegration: false, promptId: null, integrationId: null },
    })
    expect(planTicketUpdate(pending, { status: 'closed' }, me).after.userId).toBe(me)
    expect(planTicketUpdate(closed, { status: 'closed', userId: me }, me).transition).toBe('none')
  })

  test('reopen: closed -> open for the caller; anything else on a closed ticket is refused', () => {
    expect(planTicketUpdate(closed, { status: 'open', queueId: 1 }, me)).toMatchObject({ transition: 'reopen', after: { status: 'open', userId: me } })
    expect(fieldOf(() => planTicketUpdate(closed, { status: 'pending' }, me))).toBe('status')
    expect(fieldOf(() => planTicketUpdate(closed, { queueId: 2 }, me))).toBe('status')
    expect(planTicketUpdate(closed, {}, me).transition).toBe('none')
  })

  test('transfer: a new queue without a user waits there; a user makes it open for him', () => {
    expect(planTicketUpdate(mine, { queueId: 2 }, me)).toMatchObject({ transition: 'transfer', after: { status: 'pending', userId: null, queueId: 2 }, queueChanged: true })
    expect(planTicketUpdate(mine, { userId: colleague }, me)).toMatchObject({ transition: 'transfer', after: { status: 'open', userId: colleague, queueId: 1 }, userChanged: true })
    expect(planTicketUpdate(pending, { queueId: 2, userId: colleague }, me)).toMatchObject({ transition: 'transfer', after: { status: 'open', userId: colleague, queueId: 2 } })
    expect(planTicketUpdate(mine, { queueId: 2, status: 'open' }, me)).toMatchObject({ transition: 'transfer', after: { status: 'open', userId: me, queueId: 2 } })
  })

  test('edit and none', () => {
    expect(planTicketUpdate(mine, { whatsappId: 11 }, me)).toMatchObject({ transition: 'edit', after: { ...mine, whatsappId: 11 }, whatsappChanged: true })
    expect(planTicketUpdate(mine, { useIntegration: true, promptId: 3 }, me)).toMatchObject({ transition: 'edit', integration: { useIntegration: true, promptId: 3 } })
    expect(planTicketUpdate(mine, { status: 'open', userId: me, queueId: 1 }, me).transition).toBe('none')
    expect(planTicketUpdate(pending, {}, me).transition).toBe('none')
  })

  test('contradictions are 422 on userId', () => {
    expect(fieldOf(() => planTicketUpdate(mine, { status: 'pending', userId: me }, me))).toBe('userId')
    expect(fieldOf(() => planTicketUpdate(pending, { status: 'open', userId: null }, me))).toBe('userId')
  })
})
