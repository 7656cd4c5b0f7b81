// A ticket's life through the whole app on the simulated WhatsApp: a customer writes in, an agent
// accepts (greeting), transfers (notice), the new agent closes (completion message); the simulator's
// outbox holds each automatic text exactly once, and the tracking row tells the dashboard the story.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ticketTracking, tickets, userQueues, whatsapps } from '../../db/schema/index.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 30, ackDelayMs: 20 })

describe('a ticket on the simulator, end to end', () => {
  test('accept, transfer and close send the greeting, the notice and the completion message once each', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const sales = await makeQueue(context.db, { companyId, name: 'Vendas' })
    const support = await makeQueue(context.db, { companyId, name: 'Suporte' })
    const colleague = await makeUser(context.db, { companyId, name: 'Bruna' })
    await context.db.insert(userQueues).values([
      { companyId, userId: tenant.agent.id, queueId: sales.id },
      { companyId, userId: colleague.id, queueId: support.id },
    ])
    await saveSetting(context.db, companyId, 'sendGreetingAccepted', 'enabled')
    await saveSetting(context.db, companyId, 'sendMsgTransfTicket', 'enabled')

    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Loja', provider: 'simulator' })
    expect(created.status).toBe(200)
    const whatsappId = created.data!.id
    await context.db.update(whatsapps).set({ complationMessage: 'Obrigado pelo contato, {{firstName}}!' }).where(eq(whatsapps.id, whatsappId))
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')

    const customer = '5511912345678'
    expect((await tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: customer, name: 'Joana Lima', body: 'Quero comprar' })).status).toBe(200)
    let ticketId = 0
    await waitFor(async () => {
      const [row] = await context.db.select().from(tickets).where(eq(tickets.companyId, companyId))
      ticketId = row?.id ?? 0
      return ticketId > 0
    })
    await context.db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticketId))

    const asAgent = tenant.asAgent.api.tickets({ id: ticketId })
    const accepted = await asAgent.put({ status: 'open', userId: tenant.agent.id, queueId: sales.id })
    expect(accepted.data).toMatchObject({ status: 'open', userId: tenant.agent.id })
    const transferred = await asAgent.put({ queueId: support.id, userId: colleague.id })
    expect(transferred.data).toMatchObject({ status: 'open', userId: colleague.id, queueId: support.id })
    const asColleague = context.as((await signIn(context, colleague)).token).api.tickets({ id: ticketId })
    // The agent who handed it over no longer sees it; the colleague does, and closes it.
    expect((await asAgent.get()).status).toBe(403)
    const closed = await asColleague.put({ status: 'closed', userId: colleague.id, queueId: support.id })
    expect(closed.data).toMatchObject({ status: 'closed', userId: colleague.id })

    const outbox = (await tenant.asAdmin.api.simulator({ whatsappId }).outbox.get({ query: {} })).data!.messages
    expect(outbox.map((message) => ({ to: message.to, body: message.body }))).toEqual([
      { to: customer, body: `Olá! Meu nome é *${tenant.agent.name}* e, a partir de agora, vou continuar o seu atendimento.` },
      { to: customer, body: '*Mensagem automática*:\nVocê foi transferido para o setor *Suporte* e será atendido por *Bruna*.\nAguarde, já vamos te atender!' },
      { to: customer, body: 'Obrigado pelo contato, Joana!' },
    ])

    const [tracking, ...others] = await context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticketId))
    expect(others).toEqual([])
    expect(tracking).toMatchObject({ userId: colleague.id, queueId: support.id, whatsappId })
    for (const moment of ['queuedAt', 'startedAt', 'transferredAt', 'finishedAt'] as const) expect(tracking![moment]).toBeInstanceOf(Date)
    expect(tracking!.startedAt!.getTime()).toBeLessThanOrEqual(tracking!.transferredAt!.getTime())
    expect(tracking!.transferredAt!.getTime()).toBeLessThanOrEqual(tracking!.finishedAt!.getTime())
  })
})
