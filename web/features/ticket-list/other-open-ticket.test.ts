// ERR_OTHER_OPEN_TICKET is read in both forms the server answers: ours (§8), and the one
// LEGACY_CLIENT_ERRORS gives a Whaticket-family client, where `error` holds the ticket as JSON.
import { describe, expect, test } from 'bun:test'
import { otherOpenTicketOf } from './other-open-ticket.ts'

const details = { ticketId: 7, uuid: 'c0ffee', status: 'open', userId: 3, userName: 'Bruna', queueName: 'Suporte' }

describe('otherOpenTicketOf', () => {
  test('our form: the code in error, the details beside it', () => {
    expect(otherOpenTicketOf({ status: 409, value: { error: 'ERR_OTHER_OPEN_TICKET', ...details } })).toEqual({ ticketId: 7, uuid: 'c0ffee', userId: 3, userName: 'Bruna', queueName: 'Suporte' })
  })

  test('the legacy form: the ticket JSON in error, the code in code', () => {
    const value = { ...details, error: JSON.stringify({ id: 7, uuid: 'c0ffee', userId: 3, user: { name: 'Bruna' } }), code: 'ERR_OTHER_OPEN_TICKET' }
    expect(otherOpenTicketOf({ status: 409, value })).toEqual({ ticketId: 7, uuid: 'c0ffee', userId: 3, userName: 'Bruna', queueName: 'Suporte' })
  })

  test('any other error is not it', () => {
    expect(otherOpenTicketOf({ status: 409, value: { error: 'ERR_VALIDATION', ...details } })).toBeUndefined()
    expect(otherOpenTicketOf(new Error('network'))).toBeUndefined()
  })
})
