// Factories: rows made directly in the database, so a test sets up only what it needs.
import { randomBytes } from 'node:crypto'
import type { Database } from '../../db/client.ts'
import { companies, plans, queues, users, whatsapps, type Profile } from '../../db/schema/index.ts'
import { createDefaultSettings } from '../../src/modules/settings/defaults.ts'
import type { TestContext } from './context.ts'
import { contacts, tags, ticketTags, tickets, type TicketStatus } from '../../db/schema/index.ts'

// Unique within the process (a counter), different from run to run (random): names, e-mails and numbers
// with a unique index never collide, however many a file makes.
let made = 0
const unique = () => `${randomBytes(2).toString('hex')}${(++made).toString(16).padStart(4, '0')}`

export const TEST_PASSWORD = 'Secret123'
// Fixtures' hashes are argon2id like the product's, at the lowest cost: a hash carries its own cost, so
// signing in as a fixture user verifies in about 2 ms instead of 350 ms (64 MiB, two passes), and the
// suite signs in about a thousand times. Users created through the API still get the product's cost.
const FIXTURE_HASH = { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 } as const
let testPasswordHash: Promise<string> | undefined
const passwordHash = (password: string) =>
  password === TEST_PASSWORD ? (testPasswordHash ??= Bun.password.hash(password, FIXTURE_HASH)) : Bun.password.hash(password, FIXTURE_HASH)

export async function makePlan(db: Database, overrides: Partial<typeof plans.$inferInsert> = {}) {
  const [plan] = await db
    .insert(plans)
    .values({ name: `Plan ${unique()}`, users: 10, connections: 5, queues: 10, value: 99, ...overrides })
    .returning()
  return plan!
}

/** The calendar day (UTC, YYYY-MM-DD) `days` after today, or after `from` for a test that fixes its clock. */
export function daysFromToday(days: number, from: Date = new Date()): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10)
}

export async function makeCompany(db: Database, overrides: Partial<typeof companies.$inferInsert> = {}) {
  const planId = overrides.planId ?? (await makePlan(db)).id
  const [company] = await db
    .insert(companies)
    .values({ name: `Company ${unique()}`, email: `company-${unique()}@example.com`, dueDate: daysFromToday(30), ...overrides, planId })
    .returning()
  await createDefaultSettings(db, company!.id)
  return company!
}

export async function makeUser(
  db: Database,
  input: { companyId: number; profile?: Profile; super?: boolean; password?: string; email?: string; name?: string },
) {
  const password = input.password ?? TEST_PASSWORD
  const [user] = await db
    .insert(users)
    .values({
      companyId: input.companyId,
      name: input.name ?? `User ${unique()}`,
      email: input.email ?? `user-${unique()}@example.com`,
      passwordHash: await passwordHash(password),
      profile: input.profile ?? 'user',
      super: input.super ?? false,
    })
    .returning()
  return { ...user!, password }
}

/** Signs in over the API and returns the access token and the refresh cookie. */
export async function signIn(context: TestContext, user: { email: string; password: string }) {
  const { data, error, response } = await context.api.api.auth.login.post({ email: user.email, password: user.password })
  if (error) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(error.value)}`)
  const cookie = response.headers.get('set-cookie') ?? ''
  return { token: data.token, user: data.user, cookie: cookie.split(';')[0] ?? '' }
}

/** A company with an admin and an agent, both signed in: the usual starting point of a test. */
export async function makeTenant(context: TestContext, options: { plan?: Partial<typeof plans.$inferInsert>; company?: Partial<typeof companies.$inferInsert> } = {}) {
  const plan = await makePlan(context.db, options.plan)
  const company = await makeCompany(context.db, { planId: plan.id, ...options.company })
  const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
  const agent = await makeUser(context.db, { companyId: company.id, profile: 'user' })
  const adminSession = await signIn(context, admin)
  const agentSession = await signIn(context, agent)
  return {
    plan,
    company,
    admin,
    agent,
    adminToken: adminSession.token,
    agentToken: agentSession.token,
    asAdmin: context.as(adminSession.token),
    asAgent: context.as(agentSession.token),
  }
}

/** A platform super user in his own company. */
export async function makeSuper(context: TestContext) {
  const company = await makeCompany(context.db)
  const user = await makeUser(context.db, { companyId: company.id, profile: 'admin', super: true })
  const session = await signIn(context, user)
  return { company, user, token: session.token, client: context.as(session.token) }
}

/** A queue of a company, with a unique name and colour. */
export async function makeQueue(db: Database, input: { companyId: number; name?: string; color?: string }) {
  const [queue] = await db
    .insert(queues)
    .values({ companyId: input.companyId, name: input.name ?? `Queue ${unique()}`, color: input.color ?? `#${unique().slice(-6)}` })
    .returning()
  return queue!
}

/** A WhatsApp connection of a company (not connected to anything). */
export async function makeConnection(db: Database, input: { companyId: number; name?: string; isDefault?: boolean }) {
  const [connection] = await db
    .insert(whatsapps)
    .values({ companyId: input.companyId, name: input.name ?? `Connection ${unique()}`, isDefault: input.isDefault ?? false, token: randomBytes(16).toString('hex') })
    .returning()
  return connection!
}

/** A tag of a company, with a unique name unless given. */
export async function makeTag(db: Database, input: { companyId: number; name?: string; color?: string; kanban?: number }) {
  const [tag] = await db
    .insert(tags)
    .values({ companyId: input.companyId, name: input.name ?? `Tag ${unique()}`, color: input.color ?? '#5C59A0', kanban: input.kanban ?? 0 })
    .returning()
  return tag!
}

/** A contact of a company, with a unique number unless given. */
export async function makeContact(db: Database, input: { companyId: number; name?: string; number?: string; email?: string }) {
  const [contact] = await db
    .insert(contacts)
    .values({
      companyId: input.companyId,
      name: input.name ?? `Contact ${unique()}`,
      number: input.number ?? `55${String(parseInt(unique(), 16)).padStart(11, '0')}`,
      email: input.email ?? '',
    })
    .returning()
  return contact!
}

/** A ticket of a company (a new contact unless given; no connection), optionally tagged. */
export async function makeTicket(
  db: Database,
  input: { companyId: number; contactId?: number; queueId?: number | null; userId?: number | null; whatsappId?: number | null; status?: TicketStatus; tagIds?: number[] },
) {
  const contactId = input.contactId ?? (await makeContact(db, { companyId: input.companyId })).id
  const [ticket] = await db
    .insert(tickets)
    .values({
      companyId: input.companyId,
      contactId,
      queueId: input.queueId ?? null,
      userId: input.userId ?? null,
      whatsappId: input.whatsappId ?? null,
      status: input.status ?? 'pending',
    })
    .returning()
  if (input.tagIds && input.tagIds.length > 0) {
    await db.insert(ticketTags).values(input.tagIds.map((tagId) => ({ ticketId: ticket!.id, tagId, companyId: input.companyId })))
  }
  return ticket!
}
