// Issue 4 (chatbot, business hours, rating) through the whole app on the simulated WhatsApp: a
// customer writes in and walks the menus; the simulator's outbox must hold every automatic text
// exactly as often as the walk asks for it, nothing more. The clock is the context's (setNow).
import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { companies, contacts, messages, queueOptions, queues, ticketTracking, tickets, userRatings, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { saveSetting } from '../../src/modules/settings/queries.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

const context = await createTestContext({ config: { whatsappSimulator: true } })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 30, ackDelayMs: 20 })
afterEach(() => context.setNow(() => new Date()))
// A walk is a dozen round trips through the simulator.
setDefaultTimeout(30_000)

type Tenant = Awaited<ReturnType<typeof makeTenant>>
type ConnectionFields = Partial<typeof whatsapps.$inferInsert>

// Monday 23 November 2026, 10:00 in São Paulo (UTC-3): a morning inside business hours.
const mondayMorning = new Date('2026-11-23T13:00:00Z')
const minutes = (count: number) => count * 60 * 1000
const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const officeHours = weekdays.map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '08:00', endTime: '18:00' }))

let clock = mondayMorning
function setClock(at: Date): void {
  clock = at
  context.setNow(() => clock)
}

let connectionCount = 0

/** A connected simulator connection of the tenant with the given texts and queues, and a customer writing to it. */
async function openConnection(tenant: Tenant, fields: ConnectionFields, queueIds: number[] = [], number?: string) {
  const companyId = tenant.company.id
  connectionCount += 1
  const created = await tenant.asAdmin.api.whatsapp.post({ name: `Loja ${connectionCount}`, provider: 'simulator' })
  expect(created.status).toBe(200)
  const whatsappId = created.data!.id
  await context.db.update(whatsapps).set(fields).where(eq(whatsapps.id, whatsappId))
  if (queueIds.length > 0) await context.db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ whatsappId, queueId, companyId })))
  await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  const simulator = tenant.asAdmin.api.simulator({ whatsappId })
  const customer = number ?? `55119${String(10_000_000 + connectionCount * 7919).slice(0, 8)}`

  const outbox = async () => (await simulator.outbox.get({ query: {} })).data!.messages.map((message) => message.body)
  const ticket = async () => {
    const [row] = await context.db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.whatsappId, whatsappId))).orderBy(tickets.id)
    return row!
  }
  /** The customer writes; resolves once the message is stored and the expected replies are out. */
  const write = async (body: string, replies: number) => {
    const before = (await outbox()).length
    const posted = await simulator.inbound.post({ from: customer, name: 'Joana Lima', body })
    expect(posted.status).toBe(200)
    const wid = posted.data!.id
    await waitFor(async () => (await context.db.select({ id: messages.id }).from(messages).where(and(eq(messages.companyId, companyId), eq(messages.wid, wid)))).length > 0, 10_000)
    if (replies > 0) await waitFor(async () => (await outbox()).length >= before + replies, 10_000)
    // Room for a reply that should not come (the final outbox comparison catches it).
    await Bun.sleep(200)
  }
  return { whatsappId, customer, outbox, ticket, write }
}

async function addOption(input: { companyId: number; queueId: number; parentId?: number; option: string; title: string; message?: string }) {
  const [row] = await context.db
    .insert(queueOptions)
    .values({ companyId: input.companyId, queueId: input.queueId, parentId: input.parentId ?? null, option: input.option, title: input.title, message: input.message ?? '' })
    .returning()
  return row!
}

/** Vendas (no options) and Suporte (Financeiro > Boleto | Cartão, Técnico). */
async function makeQueues(companyId: number) {
  const sales = await makeQueue(context.db, { companyId, name: 'Vendas' })
  const support = await makeQueue(context.db, { companyId, name: 'Suporte' })
  await context.db.update(queues).set({ orderQueue: 1, greetingMessage: 'Vendas: já vamos te atender.' }).where(eq(queues.id, sales.id))
  await context.db.update(queues).set({ orderQueue: 2, greetingMessage: 'Suporte aqui, {{firstName}}.' }).where(eq(queues.id, support.id))
  const finance = await addOption({ companyId, queueId: support.id, option: '1', title: 'Financeiro', message: 'Financeiro, {{firstName}}: escolha' })
  await addOption({ companyId, queueId: support.id, parentId: finance.id, option: '1', title: 'Boleto', message: 'Segue o boleto.' })
  const card = await addOption({ companyId, queueId: support.id, parentId: finance.id, option: '2', title: 'Cartão', message: 'Pagamento com cartão: aguarde um atendente.' })
  await addOption({ companyId, queueId: support.id, option: '2', title: 'Técnico', message: 'Um técnico vai te atender.' })
  return { sales, support, finance, card }
}

const startMenu = 'Bom dia, Joana! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte'
const supportMenu = 'Suporte aqui, Joana.\n\n*1* - Financeiro\n*2* - Técnico\n*0* - Voltar\n*#* - Menu inicial'
// An option's text fills the §9 variables too.
const financeMenu = 'Financeiro, Joana: escolha\n\n*1* - Boleto\n*2* - Cartão\n*0* - Voltar\n*#* - Menu inicial'
const greeting = '{{ms}}, {{firstName}}! Escolha um setor:'

describe('the queue menu and the option tree', () => {
  test('greeting and menu, a queue, its options, 0 and #, an invalid reply, a leaf: each text once per step', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const { sales, support, finance, card } = await makeQueues(companyId)
    const chat = await openConnection(tenant, { greetingMessage: greeting, maxUseBotQueues: 5 }, [support.id, sales.id])

    await chat.write('Oi', 1)
    expect(await chat.ticket()).toMatchObject({ status: 'pending', queueId: null, chatbot: true, amountUsedBotQueues: 1 })
    await chat.write('9', 1)
    expect((await chat.ticket()).amountUsedBotQueues).toBe(2)
    await chat.write('2', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: support.id, chatbot: true, queueOptionId: null })
    await chat.write('1', 1)
    expect((await chat.ticket()).queueOptionId).toBe(finance.id)
    await chat.write('7', 1)
    await chat.write('0', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: support.id, queueOptionId: null })
    await chat.write('#', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: null, queueOptionId: null, chatbot: true })
    await chat.write('2', 1)
    await chat.write('1', 1)
    await chat.write('2', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: support.id, queueOptionId: card.id, chatbot: false, status: 'pending' })
    // The bot is done: the customer waits for an agent of Suporte.
    await chat.write('obrigada', 0)

    expect(await chat.outbox()).toEqual([
      startMenu,
      startMenu,
      supportMenu,
      financeMenu,
      financeMenu,
      supportMenu,
      startMenu,
      supportMenu,
      financeMenu,
      'Pagamento com cartão: aguarde um atendente.',
    ])
  })

  test('a queue without options ends the bot with its greeting; 0 from the first option level goes back to the queue menu', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const { sales, support } = await makeQueues(tenant.company.id)
    const chat = await openConnection(tenant, { greetingMessage: greeting }, [sales.id, support.id])
    await chat.write('Olá', 1)
    await chat.write('2', 1)
    await chat.write('0', 1)
    const handedOverAt = new Date(mondayMorning.getTime() + minutes(2))
    setClock(handedOverAt)
    await chat.write('1', 1)
    const ticket = await chat.ticket()
    expect(ticket).toMatchObject({ queueId: sales.id, chatbot: false })
    // The dashboard's bot time ends when the bot lets go, and the wait for a person starts.
    const [tracking] = await context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticket.id))
    expect(tracking).toMatchObject({ queueId: sales.id, chatbotEndedAt: handedOverAt })
    await chat.write('e aí?', 0)
    expect(await chat.outbox()).toEqual([startMenu, supportMenu, startMenu, 'Vendas: já vamos te atender.'])
  })

  test('maxUseBotQueues: after that many menus an invalid reply stops the bot and the ticket waits for a human', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const { sales, support } = await makeQueues(tenant.company.id)
    const chat = await openConnection(tenant, { greetingMessage: greeting, maxUseBotQueues: 2 }, [sales.id, support.id])
    await chat.write('Oi', 1)
    await chat.write('quero falar com alguém', 1)
    await chat.write('alguém?', 0)
    expect(await chat.ticket()).toMatchObject({ status: 'pending', queueId: null, chatbot: false, amountUsedBotQueues: 2 })
    await chat.write('2', 0)
    expect(await chat.outbox()).toEqual([startMenu, startMenu])
  })

  test('timeUseBotQueues: invalid replies within the quiet minutes after the bot spoke get no menu again', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const { sales, support } = await makeQueues(tenant.company.id)
    const chat = await openConnection(tenant, { greetingMessage: greeting, timeUseBotQueues: 5 }, [sales.id, support.id])
    await chat.write('Oi', 1)
    setClock(new Date(mondayMorning.getTime() + minutes(2)))
    await chat.write('??', 0)
    setClock(new Date(mondayMorning.getTime() + minutes(6)))
    await chat.write('???', 1)
    // A valid choice is answered at once, quiet minutes or not.
    await chat.write('1', 1)
    expect(await chat.outbox()).toEqual([startMenu, startMenu, 'Vendas: já vamos te atender.'])
  })

  test('one queue: put in it directly, the greeting only with sendGreetingMessageOneQueues enabled', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const { sales } = await makeQueues(tenant.company.id)
    const withGreeting = await openConnection(tenant, { greetingMessage: 'Olá {{name}}!' }, [sales.id])
    await withGreeting.write('Oi', 1)
    expect(await withGreeting.ticket()).toMatchObject({ queueId: sales.id, chatbot: false })
    await withGreeting.write('Oi de novo', 0)
    expect(await withGreeting.outbox()).toEqual(['Olá Joana Lima!\n\nVendas: já vamos te atender.'])

    await saveSetting(context.db, tenant.company.id, 'sendGreetingMessageOneQueues', 'disabled')
    const withoutGreeting = await openConnection(tenant, { greetingMessage: 'Olá {{name}}!' }, [sales.id])
    await withoutGreeting.write('Oi', 1)
    expect(await withoutGreeting.ticket()).toMatchObject({ queueId: sales.id, chatbot: false })
    expect(await withoutGreeting.outbox()).toEqual(['Vendas: já vamos te atender.'])
  })

  test('no queue: the greeting once per ticket; a contact with disableBot gets nothing', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const chat = await openConnection(tenant, { greetingMessage: 'Protocolo {{protocol}}, {{hora}}' })
    await chat.write('Oi', 1)
    await chat.write('Tudo bem?', 0)
    const ticket = await chat.ticket()
    // 10:00:00 in São Paulo.
    expect(await chat.outbox()).toEqual([`Protocolo 20261123100000${ticket.id}, 10:00:00`])
    expect(ticket).toMatchObject({ queueId: null, chatbot: false })

    await context.db.update(contacts).set({ disableBot: true }).where(eq(contacts.id, ticket.contactId))
    const { sales, support } = await makeQueues(tenant.company.id)
    const quiet = await openConnection(tenant, { greetingMessage: greeting }, [sales.id, support.id], chat.customer)
    await quiet.write('Oi', 0)
    await quiet.write('1', 0)
    expect(await quiet.ticket()).toMatchObject({ queueId: null, chatbot: false, lastBotMessageAt: null })
    expect(await quiet.outbox()).toEqual([])
  })
})

describe('business hours', () => {
  test('company hours: outside them the out-of-hours text once per burst and no bot; inside, the menu', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await context.db.update(companies).set({ schedules: officeHours, timezone: 'America/Sao_Paulo' }).where(eq(companies.id, companyId))
    await saveSetting(context.db, companyId, 'scheduleType', 'company')
    const { sales, support } = await makeQueues(companyId)
    const chat = await openConnection(tenant, { greetingMessage: greeting, outOfHoursMessage: 'Fechados agora, {{firstName}}. Voltamos às 8h.' }, [sales.id, support.id])
    // Monday 20:00 in São Paulo.
    const evening = new Date('2026-11-23T23:00:00Z')
    setClock(evening)
    await chat.write('Oi', 1)
    setClock(new Date(evening.getTime() + minutes(10)))
    await chat.write('Alô?', 0)
    setClock(new Date(evening.getTime() + minutes(45)))
    await chat.write('Ninguém?', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: null, chatbot: false, amountUsedBotQueues: 0 })
    // Tuesday 09:00 in São Paulo: open.
    setClock(new Date('2026-11-24T12:00:00Z'))
    await chat.write('Bom dia', 1)
    const closed = 'Fechados agora, Joana. Voltamos às 8h.'
    expect(await chat.outbox()).toEqual([closed, closed, startMenu])
  })

  test('queue hours: the chosen queue closed sends its out-of-hours text, the ticket stays in it without the bot', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await saveSetting(context.db, companyId, 'scheduleType', 'queue')
    const { sales, support } = await makeQueues(companyId)
    const evenings = weekdays.map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '18:00', endTime: '23:00' }))
    await context.db.update(queues).set({ schedules: evenings, outOfHoursMessage: 'O suporte abre às 18h.' }).where(eq(queues.id, support.id))
    const chat = await openConnection(tenant, { greetingMessage: greeting, outOfHoursMessage: 'not used for queue hours' }, [sales.id, support.id])
    await chat.write('Oi', 1)
    await chat.write('2', 1)
    expect(await chat.ticket()).toMatchObject({ queueId: support.id, chatbot: false })
    await chat.write('Alô?', 0)
    expect(await chat.outbox()).toEqual([startMenu, 'O suporte abre às 18h.'])
  })
})

describe('rating', () => {
  const ratingMessage = 'Como foi o atendimento, {{firstName}}? *1* ruim, *2* bom, *3* ótimo'
  const completion = 'Obrigado pelo contato, {{firstName}}!'

  async function servedConversation() {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    await saveSetting(context.db, tenant.company.id, 'userRating', 'enabled')
    const chat = await openConnection(tenant, { ratingMessage, complationMessage: completion })
    await chat.write('Preciso de ajuda', 0)
    const { id: ticketId } = await chat.ticket()
    const thread = tenant.asAdmin.api.tickets({ id: ticketId })
    expect((await thread.put({ status: 'open', userId: tenant.admin.id })).data).toMatchObject({ status: 'open' })
    const closing = await thread.put({ status: 'closed' })
    // The close is taken over: the ticket stays open while the customer is asked.
    expect(closing.data).toMatchObject({ status: 'open' })
    await waitFor(async () => (await chat.outbox()).length === 1)
    expect(await chat.ticket()).toMatchObject({ status: 'open', awaitingRating: true, ratingRetries: 0 })
    return { tenant, chat, ticketId, thread }
  }

  const ratingsOf = (ticketId: number) => context.db.select().from(userRatings).where(eq(userRatings.ticketId, ticketId))
  const trackingOf = (ticketId: number) => context.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticketId))

  for (const rate of [1, 2, 3]) {
    test(`a reply of ${rate} records the rating against the agent, marks the attendance rated and closes with the completion message`, async () => {
      const { tenant, chat, ticketId } = await servedConversation()
      await chat.write(` ${rate} `, 1)
      expect(await chat.ticket()).toMatchObject({ status: 'closed', awaitingRating: false })
      expect((await ratingsOf(ticketId)).map((row) => ({ rate: row.rate, userId: row.userId, companyId: row.companyId }))).toEqual([
        { rate, userId: tenant.admin.id, companyId: tenant.company.id },
      ])
      const [tracking, ...others] = await trackingOf(ticketId)
      expect(others).toEqual([])
      expect(tracking).toMatchObject({ rated: true, ratingAt: mondayMorning, finishedAt: mondayMorning, userId: tenant.admin.id })
      // A new message now opens a new ticket, which the rating flow does not touch.
      await chat.write('Mais uma coisa', 0)
      expect(await chat.outbox()).toEqual(['Como foi o atendimento, Joana? *1* ruim, *2* bom, *3* ótimo', 'Obrigado pelo contato, Joana!'])
    })
  }

  test('an invalid reply repeats the question once, a second one closes unrated', async () => {
    const { chat, ticketId } = await servedConversation()
    await chat.write('ótimo!', 1)
    expect(await chat.ticket()).toMatchObject({ status: 'open', awaitingRating: true, ratingRetries: 1 })
    await chat.write('5', 1)
    expect(await chat.ticket()).toMatchObject({ status: 'closed', awaitingRating: false })
    expect(await ratingsOf(ticketId)).toEqual([])
    const [tracking] = await trackingOf(ticketId)
    expect(tracking).toMatchObject({ rated: false, ratingAt: null, finishedAt: mondayMorning })
    const question = 'Como foi o atendimento, Joana? *1* ruim, *2* bom, *3* ótimo'
    expect(await chat.outbox()).toEqual([question, question, 'Obrigado pelo contato, Joana!'])
  })

  test('the agent closing again while the question is pending closes at once, unrated', async () => {
    const { chat, ticketId, thread } = await servedConversation()
    expect((await thread.put({ status: 'closed' })).data).toMatchObject({ status: 'closed' })
    await waitFor(async () => (await chat.outbox()).length === 2)
    expect(await chat.ticket()).toMatchObject({ status: 'closed', awaitingRating: false })
    expect(await ratingsOf(ticketId)).toEqual([])
    await Bun.sleep(200)
    expect(await chat.outbox()).toEqual(['Como foi o atendimento, Joana? *1* ruim, *2* bom, *3* ótimo', 'Obrigado pelo contato, Joana!'])
  })

  test('userRating disabled: the close sends the completion message only', async () => {
    setClock(mondayMorning)
    const tenant = await makeTenant(context)
    const chat = await openConnection(tenant, { ratingMessage, complationMessage: completion })
    await chat.write('Oi', 0)
    const thread = tenant.asAdmin.api.tickets({ id: (await chat.ticket()).id })
    await thread.put({ status: 'open', userId: tenant.admin.id })
    expect((await thread.put({ status: 'closed' })).data).toMatchObject({ status: 'closed' })
    await waitFor(async () => (await chat.outbox()).length === 1)
    await Bun.sleep(200)
    expect(await chat.outbox()).toEqual(['Obrigado pelo contato, Joana!'])
  })
})
