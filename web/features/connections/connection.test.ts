// The connections page's pure parts: the live list's rules (§4 session updates, §7 channels), the §2
// date format and menu badge, and the form's §5/§9 rules and server-refusal mapping.
import { plugin } from 'bun'
import { describe, expect, test } from 'bun:test'
import { linguiMacroPlugin } from '../../lingui-plugin.ts'
import { createHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { applySession, formatLastUpdate, needsAttention, removeConnection, upsertConnection, withConnectionFrame, withNewerSession, type Connection, type ConnectionStatus } from './connection.ts'

// The form's rules are Lingui descriptors: compiled on load, as in the build.
plugin(linguiMacroPlugin({ descriptorFields: 'message' }))
const { connectionBodyOf, connectionFormOf, emptyConnectionForm, fieldErrorsOf, firstTabWithError, greetingRule, integrationRule, nameRule, promptRule, validateConnectionForm } =
  await import('./connection-form.ts')

const allShown = { prompt: true, integration: true }

function connection(overrides: Partial<Connection>): Connection {
  return {
    id: 1,
    name: 'Vendas',
    status: 'DISCONNECTED',
    isDefault: false,
    number: '',
    retries: 0,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    transferQueueId: null,
    timeToTransfer: null,
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    provider: 'simulator',
    promptId: null,
    integrationId: null,
    queues: [],
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  }
}

describe('the live list', () => {
  test('a whatsapp update keeps the QR code it cannot carry; a session update replaces it', () => {
    const list = [connection({ id: 1, status: 'qrcode', qrcode: 'code-1' })]
    const renamed = upsertConnection(list, connection({ id: 1, name: 'Vendas 2', status: 'qrcode' }))
    expect(renamed[0]?.qrcode).toBe('code-1')
    expect(renamed[0]?.name).toBe('Vendas 2')
    const next = applySession(renamed, { id: 1, status: 'CONNECTED', qrcode: '', pairingCode: '', retries: 0, number: '5511', updatedAt: '2026-11-22T11:00:00.000Z' })
    expect(next[0]).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511', updatedAt: '2026-11-22T11:00:00.000Z', name: 'Vendas 2' })
  })

  test('the pairing code too: kept through a whatsapp update, replaced by the next session update', () => {
    const list = [connection({ id: 1, status: 'PAIRING', qrcode: '', pairingCode: 'ABCD1234' })]
    const renamed = upsertConnection(list, connection({ id: 1, name: 'Vendas 2', status: 'PAIRING' }))
    expect(renamed[0]).toMatchObject({ name: 'Vendas 2', pairingCode: 'ABCD1234' })
    const fresh = applySession(renamed, { id: 1, status: 'PAIRING', qrcode: '', pairingCode: 'WXYZ9876', retries: 1, number: '', updatedAt: '2026-11-22T11:00:00.000Z' })
    expect(fresh[0]?.pairingCode).toBe('WXYZ9876')
    const connected = applySession(fresh, { id: 1, status: 'CONNECTED', qrcode: '', pairingCode: '', retries: 0, number: '5511', updatedAt: '2026-11-22T11:01:00.000Z' })
    expect(connected[0]).toMatchObject({ status: 'CONNECTED', pairingCode: '' })
  })

  test('inserts keep the name order, deletes drop the row, unknown sessions change nothing', () => {
    const list = upsertConnection([connection({ id: 2, name: 'Vendas' })], connection({ id: 3, name: 'Atendimento' }))
    expect(list.map((item) => item.name)).toEqual(['Atendimento', 'Vendas'])
    expect(removeConnection(list, 3).map((item) => item.id)).toEqual([2])
    expect(applySession(list, { id: 9, status: 'CONNECTED', qrcode: '', pairingCode: '', retries: 0, number: '', updatedAt: '2026-11-22T11:00:00.000Z' })).toEqual(list)
  })

  // The race CI met: the QR code's session frame reached the page before the row read earlier (the
  // create request's answer, the `whatsapp` channel's frame), and the stale row put the modal back to
  // "Waiting for the QR code" until the phone connected.
  test('a row read before the latest session update does not undo it; its other fields still apply', () => {
    const withQr = [connection({ id: 1, status: 'qrcode', qrcode: 'code-1', updatedAt: '2026-11-22T10:00:00.200Z' })]
    const staleRow = connection({ id: 1, name: 'Vendas 2', status: 'OPENING', qrcode: '', updatedAt: '2026-11-22T10:00:00.010Z' })
    expect(upsertConnection(withQr, staleRow)[0]).toMatchObject({ name: 'Vendas 2', status: 'qrcode', qrcode: 'code-1', updatedAt: '2026-11-22T10:00:00.200Z' })
    // A newer row wins, session fields and all.
    const connected = connection({ id: 1, status: 'CONNECTED', qrcode: '', number: '5511', updatedAt: '2026-11-22T10:00:09.000Z' })
    expect(upsertConnection(withQr, connected)[0]).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511' })
    // A session answer overtaken by a newer one is dropped.
    const late = { id: 1, status: 'OPENING' as const, qrcode: '', pairingCode: '', retries: 0, number: '', updatedAt: '2026-11-22T10:00:00.100Z' }
    expect(applySession(withQr, late)).toEqual(withQr)
  })

  test('a session heard before its row is applied to the row when it comes', () => {
    const qr = { id: 4, status: 'qrcode' as const, qrcode: 'code-4', pairingCode: '', retries: 0, number: '', updatedAt: '2026-11-22T10:00:00.200Z' }
    expect(applySession([], qr)).toEqual([])
    const row = connection({ id: 4, status: 'OPENING', qrcode: '', updatedAt: '2026-11-22T10:00:00.010Z' })
    expect(upsertConnection([], withNewerSession(row, qr))[0]).toMatchObject({ id: 4, status: 'qrcode', qrcode: 'code-4' })
    // An older session than the row changes nothing.
    expect(withNewerSession({ ...row, updatedAt: '2026-11-22T10:00:01.000Z' }, qr).status).toBe('OPENING')
  })

  test('the menu badge: any connection not CONNECTED', () => {
    expect(needsAttention([{ status: 'CONNECTED' }, { status: 'CONNECTED' }])).toBe(false)
    expect(needsAttention([{ status: 'CONNECTED' }, { status: 'TIMEOUT' }])).toBe(true)
    expect(needsAttention([])).toBe(false)
  })

  test('last update as dd/MM/yyyy HH:mm in local time', () => {
    const local = new Date(2026, 0, 5, 9, 7)
    expect(formatLastUpdate(local.toISOString())).toBe('05/01/2026 09:07')
    expect(formatLastUpdate('not a date')).toBe('')
  })
})

describe('the connection form', () => {
  test('§9 defaults and §5 rules', () => {
    const empty = emptyConnectionForm()
    expect(empty).toMatchObject({ maxUseBotQueues: 3, expiresTicket: 0, timeUseBotQueues: 0, provider: 'beta', isDefault: false })
    expect(validateConnectionForm({ ...empty, name: ' a ' }).name).toBe(nameRule)
    expect(validateConnectionForm({ ...empty, name: 'Vendas' })).toEqual({})
    const twoQueues = { ...empty, name: 'Vendas', queueIds: [1, 2] }
    expect(validateConnectionForm(twoQueues).greetingMessage).toBe(greetingRule)
    expect(validateConnectionForm({ ...twoQueues, greetingMessage: 'Olá' })).toEqual({})
    expect(Object.keys(validateConnectionForm({ ...empty, name: 'Vendas', maxUseBotQueues: Number.NaN, timeToTransfer: -1 }))).toEqual(['maxUseBotQueues', 'timeToTransfer'])
  })

  test('the body: trimmed name, no transfer time without a transfer queue', () => {
    const body = connectionBodyOf({ ...emptyConnectionForm(), name: '  Vendas ', timeToTransfer: 10 }, allShown)
    expect(body.name).toBe('Vendas')
    expect(body.timeToTransfer).toBeNull()
    expect(connectionBodyOf({ ...emptyConnectionForm(), name: 'Vendas', transferQueueId: 4, timeToTransfer: 10 }, allShown).timeToTransfer).toBe(10)
  })

  test('prompt and integration: read from the connection, sent (null clears) only when their fields are shown', () => {
    expect(emptyConnectionForm()).toMatchObject({ promptId: null, integrationId: null })
    const values = connectionFormOf(connection({ promptId: 7, integrationId: 9 }))
    expect(values).toMatchObject({ promptId: 7, integrationId: 9 })
    expect(connectionBodyOf(values, allShown)).toMatchObject({ promptId: 7, integrationId: 9 })
    const cleared = connectionBodyOf({ ...values, promptId: null, integrationId: null }, allShown)
    expect(cleared.promptId).toBeNull()
    expect(cleared.integrationId).toBeNull()
    // A plan without the feature hides the field: the stored value is left alone, not resent.
    const withoutAi = connectionBodyOf(values, { prompt: false, integration: true })
    expect('promptId' in withoutAi).toBe(false)
    expect(withoutAi.integrationId).toBe(9)
    const withoutIntegrations = connectionBodyOf(values, { prompt: true, integration: false })
    expect('integrationId' in withoutIntegrations).toBe(false)
    expect(withoutIntegrations.promptId).toBe(7)
  })

  test("the server's refusals land on their fields and tabs", () => {
    const greeting = fieldErrorsOf({ status: 400, code: 'ERR_WAPP_GREETING_REQUIRED', fields: [] })
    expect(greeting.greetingMessage).toBe(greetingRule)
    expect(firstTabWithError(greeting)).toBe('messages')
    expect(Object.keys(fieldErrorsOf({ status: 400, code: 'ERR_NO_OTHER_WHATSAPP', fields: [] }))).toEqual(['isDefault'])
    const fields = fieldErrorsOf({ status: 422, code: 'ERR_VALIDATION', fields: [{ field: 'queueIds', message: 'queueIds must all be queues of your company' }, { field: 'unknown', message: 'x' }] })
    expect(fields).toEqual({ queueIds: 'queueIds must all be queues of your company' })
    expect(firstTabWithError(fields)).toBe('general')
    expect(fieldErrorsOf({ status: 403, code: 'ERR_PLAN_LIMIT_CONNECTIONS', fields: [] })).toEqual({})
  })

  test("another company's (or a deleted) prompt or integration: our words on the field, on the chatbot tab", () => {
    const refused = fieldErrorsOf({
      status: 422,
      code: 'ERR_VALIDATION',
      fields: [
        { field: 'promptId', message: 'promptId must be a prompt of your company or null' },
        { field: 'integrationId', message: 'integrationId must be an integration of your company or null' },
      ],
    })
    expect(refused).toEqual({ promptId: promptRule, integrationId: integrationRule })
    expect(firstTabWithError(refused)).toBe('bot')
    expect(firstTabWithError({ integrationId: integrationRule })).toBe('bot')
  })
})

// The menu badge's check (GET /api/whatsapp) may be read before a frame that reaches the page while
// the answer travels: the answer used to replace the statuses, and the badge showed '!' for a
// connection that had just connected, until its next frame.
test('the menu badge: frames heard while its check travels are applied again to the answer', () => {
  const heard = createHeardWhileLoading<Map<number, ConnectionStatus>>()
  heard.start()
  heard.heard((statuses) => withConnectionFrame(statuses, { action: 'update', whatsapp: { id: 2, status: 'CONNECTED' } }))
  heard.heard((statuses) => withConnectionFrame(statuses, { action: 'delete', whatsappId: 3 }))
  const answer = new Map<number, ConnectionStatus>([
    [1, 'CONNECTED'],
    [2, 'qrcode'],
    [3, 'DISCONNECTED'],
  ])
  const statuses = heard.finish(answer)
  expect([...statuses]).toEqual([
    [1, 'CONNECTED'],
    [2, 'CONNECTED'],
  ])
  expect(needsAttention([...statuses.values()].map((status) => ({ status })))).toBe(false)
})
