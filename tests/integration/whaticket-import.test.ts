// `zapdesk import whaticket` (issue 16, item 6) against a Whaticket database built from our fixture of
// its published schema: a dry run writes nothing, --company brings one company, the whole import brings
// the rest with its conflicts reported, an imported user signs in with his Whaticket password, and a
// second run imports only what the source gained. PostgreSQL only: the source is a database on it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import {
  companies,
  contactExtraInfo,
  contacts,
  importMappings,
  messages,
  queueOptions,
  queues,
  quickMessages,
  schedules,
  settings,
  tags,
  ticketTags,
  tickets,
  userQueues,
  users,
  whatsappQueues,
  whatsapps,
} from '../../db/schema/index.ts'
import { useDatabase } from '../../cli/database.ts'
import { importWhaticket, type WhaticketReport } from '../../cli/whaticket/index.ts'
import { sourceNameOf } from '../../cli/whaticket/source.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { connectionTokenHash, openConnectionToken } from '../../src/modules/whatsapp/connection-token.ts'
import { jsonOf, runZapdesk } from '../helpers/cli.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { testDatabaseUrl } from '../helpers/database.ts'
import { makeCompany, makeUser, signIn } from '../helpers/factories.ts'
import { createWhaticketSource, WHATICKET_PASSWORD, type WhaticketSource } from '../helpers/whaticket-source.ts'

const serverUrl = testDatabaseUrl()
// Top level, not in a hook: the context registers its own afterAll.
const context = (serverUrl ? await createTestContext() : undefined) as TestContext
let source: WhaticketSource

beforeAll(async () => {
  if (!serverUrl) return
  useDatabase({ db: context.db, config: context.deps.config })
  source = await createWhaticketSource(serverUrl)
  // A Zapdesk user has one of the e-mails already: that Whaticket user is a conflict.
  const company = await makeCompany(context.db)
  await makeUser(context.db, { companyId: company.id, email: 'taken@zapdesk.test' })
})

afterAll(async () => {
  useDatabase(undefined)
  await source?.drop()
})

const importRun = async (...extra: string[]) => jsonOf<WhaticketReport>(await runZapdesk('import', 'whaticket', '--from', source.url, '--media', source.media, '--json', ...extra))
const countsOf = (report: WhaticketReport) => Object.fromEntries(report.entities.map((entry) => [entry.entity, [entry.imported, entry.alreadyImported, entry.skipped]]))
const reasons = (report: WhaticketReport) => report.issues.map((issue) => `${issue.entity}:${issue.sourceId}:${issue.reason}`)

async function companyNamed(name: string) {
  const [company] = await context.db.select().from(companies).where(eq(companies.name, name))
  return company
}

async function rowsOf(table: typeof contacts | typeof tickets | typeof messages | typeof queues | typeof tags | typeof whatsapps | typeof users | typeof schedules | typeof quickMessages | typeof contactExtraInfo | typeof queueOptions, companyId: number) {
  const [row] = await context.db.select({ total: count() }).from(table).where(eq(table.companyId, companyId))
  return row!.total
}

describe.skipIf(!serverUrl)('zapdesk import whaticket', () => {
  test('a dry run reports what would be imported and writes nothing', async () => {
    const report = await importRun('--dry-run')
    expect(report.dryRun).toBe(true)
    expect(report.companies).toEqual([1, 2])
    expect(countsOf(report)).toMatchObject({ Companies: [2, 0, 0], Users: [3, 0, 1], Tickets: [5, 0, 1], Messages: [10, 0, 0], Contacts: [4, 0, 0] })
    expect(report.media).toEqual({ copied: 1, missing: 1 })
    expect(await companyNamed('Loja da Esquina')).toBeUndefined()
    const [mapped] = await context.db.select({ total: count() }).from(importMappings)
    expect(mapped!.total).toBe(0)
  })

  test('--company imports that company only; its super user comes in as a plain admin', async () => {
    const report = await importRun('--company', '1', '--batch-size', '2')
    expect(report.companies).toEqual([1])
    expect(countsOf(report)).toMatchObject({ Plans: [1, 0, 0], Companies: [1, 0, 0], Users: [1, 0, 0], Tickets: [1, 0, 0], Messages: [1, 0, 0] })
    expect(reasons(report)).toContain('Users:1:SUPER_NOT_KEPT')
    const platform = (await companyNamed('Whaticket Plataforma'))!
    expect(platform.dueDate).toBe('2093-03-14')
    expect(await companyNamed('Loja da Esquina')).toBeUndefined()
    const [admin] = await context.db.select().from(users).where(eq(users.email, 'admin@whaticket.test'))
    expect(admin).toMatchObject({ companyId: platform.id, super: false, profile: 'admin' })
  })

  test('the whole import: every table of the other company, conflicts reported, media copied', async () => {
    // Pages of 2 rows: every table is read over several pages (ids, WhatsApp's string ids, pairs of ids).
    const report = await importRun('--batch-size', '2')
    expect(countsOf(report)).toMatchObject({
      Plans: [1, 1, 0],
      Companies: [1, 1, 0],
      Settings: [2, 1, 1],
      Queues: [2, 1, 0],
      QueueOptions: [3, 0, 0],
      Whatsapps: [2, 1, 0],
      WhatsappQueues: [2, 1, 0],
      Users: [2, 1, 1],
      UserQueues: [3, 1, 0],
      Contacts: [3, 1, 0],
      ContactCustomFields: [2, 0, 0],
      Tags: [2, 0, 0],
      Tickets: [4, 1, 1],
      TicketTags: [3, 0, 0],
      Messages: [9, 1, 0],
      QuickMessages: [2, 0, 0],
      Schedules: [2, 0, 0],
    })
    expect(reasons(report)).toEqual(
      expect.arrayContaining(['Users:4:EMAIL_TAKEN', 'Tickets:103:TICKET_CONFLICT', 'Tickets:105:CONTACT_NOT_IMPORTED', 'Messages:3EB0A5:MEDIA_MISSING', 'Settings:3:SETTING_LEFT_OUT']),
    )
    expect(report.media).toEqual({ copied: 1, missing: 1 })

    const store = (await companyNamed('Loja da Esquina'))!
    expect(store).toMatchObject({ email: 'contato@lojadaesquina.test', phone: '1133334444', dueDate: '2031-01-15', recurrence: 'MENSAL' })
    expect(store.schedules).toEqual([{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }])
    expect(await rowsOf(users, store.id)).toBe(2)
    expect(await rowsOf(queues, store.id)).toBe(2)
    expect(await rowsOf(contacts, store.id)).toBe(3)
    expect(await rowsOf(contactExtraInfo, store.id)).toBe(2)
    expect(await rowsOf(tickets, store.id)).toBe(4)
    expect(await rowsOf(messages, store.id)).toBe(9)
    expect(await rowsOf(quickMessages, store.id)).toBe(2)
    expect(await rowsOf(schedules, store.id)).toBe(2)

    // Connections come without their sessions, to be paired again; the API token stays.
    const connections = await context.db.select().from(whatsapps).where(eq(whatsapps.companyId, store.id))
    expect(connections.map((connection) => [connection.name, connection.status, connection.isDefault])).toEqual(
      expect.arrayContaining([
        ['Loja Principal', 'DISCONNECTED', true],
        ['Loja Entregas', 'DISCONNECTED', false],
      ]),
    )
    const main = connections.find((connection) => connection.name === 'Loja Principal')!
    // Sealed at rest like every token of ours, found by its lookup key: the integrations keep working.
    expect(isSealed(main.token)).toBe(true)
    expect(openConnectionToken(context.deps, main.token)).toBe('loja-api-token-123')
    expect(main.tokenHash).toBe(connectionTokenHash(context.deps, 'loja-api-token-123'))
    const [linked] = await context.db.select({ total: count() }).from(whatsappQueues).where(eq(whatsappQueues.whatsappId, main.id))
    expect(linked!.total).toBe(2)

    // The option whose parent came later in id order has its parent.
    const [secondCopy] = await context.db.select().from(queueOptions).where(and(eq(queueOptions.companyId, store.id), eq(queueOptions.title, 'Segunda via')))
    const [orders] = await context.db.select().from(queueOptions).where(eq(queueOptions.id, secondCopy!.parentId!))
    expect(orders!.title).toBe('Pedidos')

    // Statuses, and the second pending ticket of one contact on "no connection" imported closed.
    const statuses = await context.db.select({ status: tickets.status }).from(tickets).where(eq(tickets.companyId, store.id))
    expect(statuses.map((row) => row.status).sort()).toEqual(['closed', 'closed', 'open', 'pending'])

    // The message history, the media file in our storage, the quote linked.
    const [ana] = await context.db.select().from(contacts).where(and(eq(contacts.companyId, store.id), eq(contacts.number, '5511987654321')))
    const [anaTicket] = await context.db.select().from(tickets).where(eq(tickets.contactId, ana!.id))
    const history = await context.db.select().from(messages).where(eq(messages.ticketId, anaTicket!.id))
    expect(history).toHaveLength(7)
    const photo = history.find((message) => message.wid === '3EB0A3')!
    expect(photo).toMatchObject({ mediaType: 'image', mediaName: 'foto-pedido.png' })
    expect((await context.deps.storage.read(photo.mediaPath!))?.size).toBe(70)
    const reply = history.find((message) => message.wid === '3EB0A2')!
    expect(reply).toMatchObject({ mediaType: 'chat', fromMe: true, quotedMsgId: history.find((message) => message.wid === '3EB0A1')!.id })
    expect(history.find((message) => message.wid === '0QUOTE')!.quotedMsgId).toBe(history.find((message) => message.wid === '3EB0A6')!.id)
    expect(history.find((message) => message.wid === '3EB0A5')).toMatchObject({ mediaType: 'audio', mediaPath: null })
    const anaTags = await context.db.select({ name: tags.name }).from(ticketTags).innerJoin(tags, eq(tags.id, ticketTags.tagId)).where(eq(ticketTags.ticketId, anaTicket!.id))
    expect(anaTags.map((tag) => tag.name).sort()).toEqual(['Troca', 'VIP'])
    // The tag rows carry the imported ticket's columns for the list's tag filter (the trigger's copies).
    const copies = await context.db
      .select({ status: ticketTags.ticketStatus, queueId: ticketTags.ticketQueueId, userId: ticketTags.ticketUserId, updatedAt: ticketTags.ticketUpdatedAt })
      .from(ticketTags)
      .where(eq(ticketTags.ticketId, anaTicket!.id))
    expect(copies).toEqual([0, 1].map(() => ({ status: anaTicket!.status, queueId: anaTicket!.queueId, userId: anaTicket!.userId, updatedAt: anaTicket!.updatedAt })))

    const [joao] = await context.db.select().from(users).where(eq(users.email, 'joao@lojadaesquina.test'))
    expect(anaTicket).toMatchObject({ status: 'open', userId: joao!.id })
    const joaoQueues = await context.db.select({ name: queues.name }).from(userQueues).innerJoin(queues, eq(queues.id, userQueues.queueId)).where(eq(userQueues.userId, joao!.id))
    expect(joaoQueues.map((queue) => queue.name).sort()).toEqual(['Financeiro', 'Vendas'])
    const [rating] = await context.db.select().from(settings).where(and(eq(settings.companyId, store.id), eq(settings.key, 'userRating')))
    expect(rating!.value).toBe('enabled')
    const pending = await context.db.select().from(schedules).where(and(eq(schedules.companyId, store.id), eq(schedules.status, 'PENDENTE')))
    expect(pending).toHaveLength(1)
  })

  test('an imported user signs in with his Whaticket password, and his hash becomes ours', async () => {
    const session = await signIn(context, { email: 'joao@lojadaesquina.test', password: WHATICKET_PASSWORD })
    expect(session.user.email).toBe('joao@lojadaesquina.test')
    const [joao] = await context.db.select().from(users).where(eq(users.email, 'joao@lojadaesquina.test'))
    expect(joao!.passwordHash.startsWith('$argon2')).toBe(true)
    // The upgraded hash still takes the same password; a wrong one is refused either way.
    await signIn(context, { email: 'joao@lojadaesquina.test', password: WHATICKET_PASSWORD })
    const wrong = await context.api.api.auth.login.post({ email: 'maria@lojadaesquina.test', password: 'not-the-password' })
    expect(wrong.response.status).toBe(401)
  })

  test('a second run imports nothing; after the source gains rows, only those come in', async () => {
    const again = await importRun()
    expect(again.entities.every((entry) => entry.imported === 0)).toBe(true)
    expect(again.media).toEqual({ copied: 0, missing: 0 })

    await source.sql`INSERT INTO "Contacts" ("id", "name", "number", "companyId", "createdAt", "updatedAt") VALUES (13, 'Diana Nova', '5511911112222', 2, now(), now())`
    await source.sql`INSERT INTO "Tickets" ("id", "status", "contactId", "whatsappId", "companyId", "createdAt", "updatedAt") VALUES (104, 'pending', 13, 2, 2, now(), now())`
    await source.sql`INSERT INTO "Messages" ("id", "body", "ticketId", "contactId", "companyId", "createdAt", "updatedAt") VALUES ('D1', 'Oi, vocês entregam no sábado?', 104, 13, 2, now(), now()), ('3EB0A7', 'Mais uma coisa', 100, 10, 2, now(), now())`
    const dry = await importRun('--dry-run')
    expect(countsOf(dry)).toMatchObject({ Contacts: [1, 4, 0], Tickets: [1, 5, 1], Messages: [2, 10, 0] })
    const store = (await companyNamed('Loja da Esquina'))!
    expect(await rowsOf(messages, store.id)).toBe(9)

    const later = await importRun()
    expect(countsOf(later)).toMatchObject({ Companies: [0, 2, 0], Contacts: [1, 4, 0], Tickets: [1, 5, 1], Messages: [2, 10, 0], Users: [0, 3, 1] })
    expect(later.entities.filter((entry) => !['Contacts', 'Tickets', 'Messages'].includes(entry.entity)).every((entry) => entry.imported === 0)).toBe(true)
    const added = await context.db.select({ wid: messages.wid }).from(messages).where(and(eq(messages.companyId, store.id), inArray(messages.wid, ['D1', '3EB0A7']), isNotNull(messages.ticketId)))
    expect(added).toHaveLength(2)
  })

  test('a run waits while another holds the source: two runs at once never both take a row for new', async () => {
    const store = (await companyNamed('Loja da Esquina'))!
    const before = await rowsOf(quickMessages, store.id)
    await source.sql`INSERT INTO "QuickMessages" ("shortcode", "message", "companyId", "createdAt", "updatedAt") VALUES ('um', 'Um', 2, now(), now())`
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    // Another run's page in progress: the source's lock held in a transaction of our own.
    const holder = context.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${sourceNameOf(source.url)}))`)
      await held
    })
    let finished = false
    const run = importWhaticket(context.db, context.deps.config, { from: source.url, dryRun: false, progress: () => ({ update() {}, done() {} }) }).finally(() => (finished = true))
    const waiting = async () => {
      const rows = await context.db.execute<{ waiting: number }>(sql`SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
      return (rows as unknown as { waiting: number }[])[0]!.waiting
    }
    while ((await waiting()) === 0) await Bun.sleep(10)
    expect(finished).toBe(false)
    release()
    await holder
    const report = await run
    expect(report.entities.find((entry) => entry.entity === 'QuickMessages')!.imported).toBe(1)
    expect(await rowsOf(quickMessages, store.id)).toBe(before + 1)
  })

  test('a source that is not a Whaticket database is refused in one line', async () => {
    const run = await runZapdesk('import', 'whaticket', '--from', new URL('/postgres', serverUrl!).toString().replace(/^http/, 'postgres'))
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('is it a Whaticket database?')
  })
})
