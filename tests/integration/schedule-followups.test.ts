// Follow-ups (issue 12 item 7): repeating scheduled messages computed in the company's time zone, each
// occurrence sent once by any number of job runners, "cancel if the customer replies first", and the
// §9 variables filled in the text (issue 14 item 5).
import { afterEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { schedules } from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { claimOccurrence } from '../../src/modules/schedules/queries.ts'
import { scheduledMessagesJob } from '../../jobs/scheduled-messages.ts'
import { dispatchDueSchedules, STALE_CLAIM_MS } from '../../src/modules/schedules/dispatch.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeTenant } from '../helpers/factories.ts'
import { captureRealtime, createFakeRegistry, inboundMessage, settleRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()
const fake = createFakeRegistry()
const pipeline = createInboundPipeline(context.deps, { registry: fake.registry })
// The services' clock: real time shifted by what a test sets (tokens are checked against real time).
let aheadMs = 0
const now = () => new Date(Date.now() + aheadMs)
context.setNow(now)
const setClock = (at: string | Date) => {
  aheadMs = new Date(at).getTime() - Date.now()
}
const advanceMinutes = (minutes: number) => {
  aheadMs += minutes * 60_000
}
const inMinutes = (minutes: number) => new Date(now().getTime() + minutes * 60_000).toISOString()
const iso = (at: string | Date) => new Date(at).toISOString()

// One company for the file (signing in is the slow part); each test has a contact of its own.
// Paid far ahead: the clock travels months in these tests.
const tenant = await makeTenant(context, { company: { dueDate: '2099-12-31', timezone: 'America/Sao_Paulo' } })
const companyId = tenant.company.id
const connection = await makeConnection(context.db, { companyId, isDefault: true })
const provider = fake.connect(connection)
const api = context.as(tenant.adminToken).api

async function company() {
  const contact = await makeContact(context.db, { companyId, name: 'Maria Clara Souza', email: 'maria@example.com' })
  /** What went out to this test's contact. */
  const sentTo = () => provider.sent.filter((record) => record.to === contact.number)
  return { companyId, connection, contact, api, sentTo }
}

// What a test leaves waiting would go out in a later test's run (the clock moves on): removed.
afterEach(async () => {
  await context.db.delete(schedules).where(eq(schedules.companyId, companyId))
})

/** The dispatcher's run; what other tests left due may go out too, so tests count their own contact's sends. */
const dispatch = () => dispatchDueSchedules(context.deps, fake.registry)

describe('follow-ups: the §9 variables', () => {
  test('{{firstName}}, {{name}}, {{email}}, {{hora}} and {{protocol}} are filled, not sent verbatim', async () => {
    setClock('2027-03-10T13:58:00Z')
    const { api, contact, sentTo } = await company()
    const id = (await api.schedules.post({ body: 'Olá {{firstName}} ({{name}}, {{email}}), são {{hora}}. Protocolo {{protocol}}.', sendAt: inMinutes(2), contactId: contact.id })).data!.id
    setClock('2027-03-10T14:00:30Z')
    await dispatch()
    const ticketId = (await api.schedules({ id }).get()).data!.ticketId
    // 14:00 UTC is 11:00 in São Paulo.
    expect(sentTo().map((record) => record.body)).toEqual([`Olá Maria (Maria Clara Souza, maria@example.com), são 11:00:30. Protocolo 20270310110030${ticketId}.`])
  })
})

describe('follow-ups: recurrence', () => {
  test('daily, 3 times: one send per day at the same hour, then ENVIADA; the view lists the occurrences to come', async () => {
    setClock('2027-04-01T11:00:00Z')
    const { api, contact, sentTo } = await company()
    const created = await api.schedules.post({ body: 'Lembrete diário', sendAt: '2027-04-01T12:00:00Z', contactId: contact.id, recurrence: 'daily', recurrenceCount: 3 })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({ recurrence: 'daily', recurrenceCount: 3, recurrenceUntil: null, occurrence: 0, cancelOnReply: false })
    expect(created.data!.occurrences.map(iso)).toEqual(['2027-04-01T12:00:00.000Z', '2027-04-02T12:00:00.000Z', '2027-04-03T12:00:00.000Z'])
    const id = created.data!.id
    for (const [day, status] of [
      ['01', 'PENDENTE'],
      ['02', 'PENDENTE'],
      ['03', 'ENVIADA'],
    ] as const) {
      setClock(`2027-04-${day}T12:00:10Z`)
      await dispatch()
      await dispatch()
      expect(sentTo()).toHaveLength(Number(day))
      const schedule = (await api.schedules({ id }).get()).data!
      expect(schedule.status).toBe(status)
    }
    expect(sentTo()).toHaveLength(3)
    const done = (await api.schedules({ id }).get()).data!
    expect(done).toMatchObject({ status: 'ENVIADA', occurrence: 2, occurrences: [] })
    setClock('2027-04-10T12:00:00Z')
    await dispatch()
    expect(sentTo()).toHaveLength(3)
  })

  test('weekly until a date: the occurrences up to it; a missed one is skipped, not sent late', async () => {
    setClock('2027-05-01T10:00:00Z')
    const { api, contact, sentTo } = await company()
    const created = await api.schedules.post({
      body: 'Lembrete semanal',
      sendAt: '2027-05-03T12:00:00Z',
      contactId: contact.id,
      recurrence: 'weekly',
      recurrenceUntil: '2027-05-24T12:00:00Z',
    })
    expect(created.data!.occurrences.map(iso)).toEqual(['2027-05-03T12:00:00.000Z', '2027-05-10T12:00:00.000Z', '2027-05-17T12:00:00.000Z', '2027-05-24T12:00:00.000Z'])
    const id = created.data!.id
    setClock('2027-05-03T12:01:00Z')
    await dispatch()
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'PENDENTE', occurrence: 1, sendAt: '2027-05-10T12:00:00.000Z' })
    // Nothing ran for more than a week: the 10th is skipped, the 17th goes out now and the 24th waits.
    setClock('2027-05-17T13:00:00Z')
    await dispatch()
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'PENDENTE', occurrence: 3, sendAt: '2027-05-24T12:00:00.000Z' })
    setClock('2027-05-24T12:00:05Z')
    await dispatch()
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'ENVIADA' })
    expect(sentTo()).toHaveLength(3)
  })

  test("monthly on the 31st in the company's time zone: the last day of February, then the 31st again", async () => {
    // 21:30 in São Paulo on 31 January is already 1 February in UTC.
    setClock('2027-01-31T20:00:00Z')
    const { api, contact, sentTo } = await company()
    const created = await api.schedules.post({ body: 'Fatura do mês', sendAt: '2027-02-01T00:30:00Z', contactId: contact.id, recurrence: 'monthly', recurrenceCount: 3 })
    expect(created.data!.occurrences.map(iso)).toEqual(['2027-02-01T00:30:00.000Z', '2027-03-01T00:30:00.000Z', '2027-04-01T00:30:00.000Z'])
    const id = created.data!.id
    for (const at of ['2027-02-01T00:31:00Z', '2027-03-01T00:31:00Z', '2027-04-01T00:31:00Z']) {
      setClock(at)
      await dispatch()
    }
    expect(sentTo()).toHaveLength(3)
    expect((await api.schedules({ id }).get()).data?.status).toBe('ENVIADA')
  })

  // A review found one failure (WhatsApp reconnecting, a database error) or one claim left by a
  // stopped process ended a daily series for good (ERRO, no next occurrence) until someone edited it.
  test('a failed or abandoned occurrence of a series keeps its error and the series goes on', async () => {
    setClock('2027-05-01T08:00:00Z')
    const { api, contact, sentTo, companyId } = await company()
    const id = (await api.schedules.post({ body: 'Lembrete resistente', sendAt: '2027-05-01T09:00:00Z', contactId: contact.id, recurrence: 'daily', recurrenceCount: 4 })).data!.id
    setClock('2027-05-01T09:00:01Z')
    provider.failures.send = new Error('WhatsApp is reconnecting')
    try {
      expect(await dispatch()).toMatchObject({ sent: 0, failed: 1 })
    } finally {
      provider.failures.send = undefined
    }
    const afterFailure = (await api.schedules({ id }).get()).data!
    expect(afterFailure).toMatchObject({ status: 'PENDENTE', error: 'ERR_SENDING_WAPP_MSG', occurrence: 1 })
    expect(iso(afterFailure.sendAt!)).toBe('2027-05-02T09:00:00.000Z')
    // Day 2 goes out and clears the error.
    setClock('2027-05-02T09:00:01Z')
    expect(await dispatch()).toMatchObject({ sent: 1 })
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'PENDENTE', error: null, occurrence: 2 })
    // Day 3 is claimed by a process that dies: not sent again, the series moves on to day 4.
    setClock('2027-05-03T09:00:01Z')
    expect(await claimOccurrence(context.db, { companyId, id, occurrence: 2 }, context.deps.now())).toBe(true)
    setClock(new Date(Date.parse('2027-05-03T09:00:01Z') + STALE_CLAIM_MS + 60_000))
    expect(await dispatch()).toMatchObject({ sent: 0, failed: 1 })
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'PENDENTE', error: 'ERR_SENDING_WAPP_MSG', occurrence: 3 })
    setClock('2027-05-04T09:00:01Z')
    expect(await dispatch()).toMatchObject({ sent: 1 })
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'ENVIADA', error: null })
    expect(sentTo().map((record) => record.body)).toEqual(['Lembrete resistente', 'Lembrete resistente'])
  })

  test('exactly once: two job runners at every occurrence, and a runner that read an occurrence late claims nothing', async () => {
    setClock('2027-06-01T08:00:00Z')
    const { api, contact, sentTo, companyId } = await company()
    const id = (await api.schedules.post({ body: 'Lembrete duplo', sendAt: '2027-06-01T09:00:00Z', contactId: contact.id, recurrence: 'daily', recurrenceCount: 3 })).data!.id
    const runners = [scheduledMessagesJob(context.deps, fake.registry), scheduledMessagesJob(context.deps, fake.registry)]
    for (const day of ['01', '02', '03']) {
      setClock(`2027-06-${day}T09:00:01Z`)
      await Promise.all(runners.map((runner) => runner.handle({})))
      await Promise.all(runners.map((runner) => runner.handle({})))
    }
    expect(sentTo().map((record) => record.body)).toEqual(['Lembrete duplo', 'Lembrete duplo', 'Lembrete duplo'])
    // What a runner that saw occurrence 1 due, and was slower than the one that sent it, would try.
    await context.db.update(schedules).set({ status: 'PENDENTE' }).where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
    expect(await claimOccurrence(context.db, { id, companyId, occurrence: 1 }, now())).toBe(false)
  })
})

describe('follow-ups: validation', () => {
  test('a bad repetition is refused field by field, and nothing is stored', async () => {
    setClock(new Date())
    const { api, contact, companyId } = await company()
    const base = { body: 'Lembrete', sendAt: inMinutes(60), contactId: contact.id }
    const cases: [Record<string, unknown>, string[]][] = [
      [{ recurrence: 'yearly', recurrenceCount: 3 }, ['recurrence']],
      [{ recurrence: 'daily', recurrenceCount: 1 }, ['recurrenceCount']],
      [{ recurrence: 'daily', recurrenceCount: 2.5 }, ['recurrenceCount']],
      [{ recurrence: 'daily' }, ['recurrenceUntil']],
      [{ recurrence: 'daily', recurrenceCount: 3, recurrenceUntil: inMinutes(60 * 24 * 5) }, ['recurrenceCount']],
      [{ recurrence: 'weekly', recurrenceUntil: inMinutes(10) }, ['recurrenceUntil']],
      [{ recurrence: 'weekly', recurrenceUntil: '2099-02-30T10:00:00Z' }, ['recurrenceUntil']],
      [{ recurrenceCount: 3 }, ['recurrenceCount']],
      [{ cancelOnReply: 'yes' }, ['cancelOnReply']],
    ]
    for (const [fields, expected] of cases) {
      const result = await api.schedules.post({ ...base, ...fields })
      expect({ fields, status: result.status, errors: fieldsOf(result) }).toEqual({ fields, status: 422, errors: expected })
    }
    expect(await context.db.select().from(schedules).where(and(eq(schedules.companyId, companyId), eq(schedules.contactId, contact.id)))).toEqual([])
    // An edit is checked the same way, with what the schedule already has.
    const id = (await api.schedules.post({ ...base, recurrence: 'weekly', recurrenceCount: 4 })).data!.id
    expect(fieldsOf(await api.schedules({ id }).put({ recurrenceUntil: inMinutes(60 * 24 * 30) }))).toEqual(['recurrenceCount'])
    const single = await api.schedules({ id }).put({ recurrence: null })
    expect(single.data).toMatchObject({ recurrence: null, recurrenceCount: null, recurrenceUntil: null })
  })
})

describe('follow-ups: cancel if the customer replies first', () => {
  test("the contact's reply cancels its follow-ups armed before and due after it, live; an edit arms it again", async () => {
    setClock(new Date())
    const { api, contact, connection, companyId, sentTo } = await company()
    const realtime = captureRealtime(context)
    const followUp = (await api.schedules.post({ body: 'Conseguiu ver a proposta?', sendAt: inMinutes(60), contactId: contact.id, cancelOnReply: true })).data!
    expect(followUp.cancelOnReply).toBe(true)
    const plain = (await api.schedules.post({ body: 'Lembrete sem condição', sendAt: inMinutes(60), contactId: contact.id })).data!
    // Another contact writing in at the same moment: its follow-up goes too, this one's plain one stays.
    const other = await company()
    const otherFollowUp = (await api.schedules.post({ body: 'E o orçamento?', sendAt: inMinutes(60), contactId: other.contact.id, cancelOnReply: true })).data!
    advanceMinutes(1)
    await Promise.all([
      pipeline.message({ companyId, whatsappId: connection.id }, inboundMessage({ from: contact.number, body: 'Vi sim, obrigado', timestamp: now() })),
      pipeline.message({ companyId, whatsappId: connection.id }, inboundMessage({ from: other.contact.number, body: 'Já vi', timestamp: now() })),
    ])
    // The listener handles the replies of a burst together, a moment later.
    await waitFor(async () => (await api.schedules({ id: followUp.id }).get()).data?.status === 'CANCELADA')
    await waitFor(async () => (await api.schedules({ id: otherFollowUp.id }).get()).data?.status === 'CANCELADA')
    expect((await api.schedules({ id: plain.id }).get()).data?.status).toBe('PENDENTE')
    await settleRealtime(context)
    const frames = realtime.on(companyId, 'schedule').map((frame) => frame.data as { action: string; schedule?: { id: number; status: string } })
    expect(frames.some((frame) => frame.schedule?.id === followUp.id && frame.schedule.status === 'CANCELADA')).toBe(true)
    realtime.stop()
    // Edited after the reply: armed again, and the earlier reply no longer cancels it (nor does the dispatcher).
    advanceMinutes(1)
    const again = await api.schedules({ id: followUp.id }).put({ sendAt: inMinutes(5) })
    expect(again.data?.status).toBe('PENDENTE')
    advanceMinutes(6)
    await dispatch()
    expect((await api.schedules({ id: followUp.id }).get()).data?.status).toBe('ENVIADA')
    expect(sentTo().map((record) => record.body)).toEqual(['Conseguiu ver a proposta?'])
  })

  test('a daily follow-up stops at the reply; a reply stored before the claim is caught by the dispatcher', async () => {
    setClock('2027-07-01T08:00:00Z')
    const { api, contact, connection, companyId, sentTo } = await company()
    const id = (await api.schedules.post({ body: 'Ainda tem interesse?', sendAt: '2027-07-01T09:00:00Z', contactId: contact.id, recurrence: 'daily', recurrenceCount: 5, cancelOnReply: true })).data!.id
    setClock('2027-07-01T09:00:05Z')
    await dispatch()
    expect(sentTo()).toHaveLength(1)
    setClock('2027-07-01T15:00:00Z')
    await pipeline.message({ companyId, whatsappId: connection.id }, inboundMessage({ from: contact.number, body: 'Tenho sim', timestamp: now() }))
    await waitFor(async () => (await api.schedules({ id }).get()).data?.status === 'CANCELADA')
    expect((await api.schedules({ id }).get()).data).toMatchObject({ status: 'CANCELADA', occurrences: [] })
    setClock('2027-07-02T09:00:05Z')
    await dispatch()
    expect(sentTo()).toHaveLength(1)
    // A reply the listener did not see (stored while the schedule was being edited, say): the dispatcher checks.
    const other = (await api.schedules.post({ body: 'Posso ajudar em algo?', sendAt: '2027-07-02T10:00:00Z', contactId: contact.id, cancelOnReply: true })).data!.id
    await context.db.update(schedules).set({ armedAt: new Date('2027-07-01T00:00:00Z') }).where(and(eq(schedules.companyId, companyId), eq(schedules.id, other)))
    setClock('2027-07-02T10:00:05Z')
    await dispatch()
    expect((await api.schedules({ id: other }).get()).data?.status).toBe('CANCELADA')
    expect(sentTo()).toHaveLength(1)
  })
})
