// First-start data: the platform's super user and, for the demo, a company on an all-features plan
// with an admin and an agent. Idempotent: run on every boot, it creates only what is missing.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Database, Executor } from '../db/client.ts'
import { companies, plans, users, whatsapps } from '../db/schema/index.ts'
import type { ConnectionManager } from './channels/sessions/manager.ts'
import type { Deps } from './modules/deps.ts'
import { createWhatsapp } from './modules/whatsapp/service.ts'
import { createDefaultSettings } from './modules/settings/defaults.ts'
import { findUserByEmail } from './modules/users/queries.ts'

export const SUPER_EMAIL = 'admin@zapdesk.local'
export const DEMO_ADMIN_EMAIL = 'admin@demo.zapdesk.local'
export const DEMO_AGENT_EMAIL = 'agent@demo.zapdesk.local'
export const DEMO_COMPANY = 'Demo Company'

export type SeedResult = { created: { email: string; password: string; role: string }[] }

/** Random, and always within the password rule (an uppercase letter, a lowercase letter, a digit). */
const generatedPassword = () => `Zd7-${randomBytes(9).toString('base64url')}`

function addMonths(isoDate: string, months: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`)
  date.setUTCMonth(date.getUTCMonth() + months)
  return date.toISOString().slice(0, 10)
}

async function ensurePlan(db: Executor, name: string, limits: { users: number; connections: number; queues: number; value: number; isPublic: boolean }) {
  const [existing] = await db.select().from(plans).where(eq(plans.name, name)).limit(1)
  if (existing) return existing
  const [plan] = await db.insert(plans).values({ name, ...limits }).returning()
  return plan!
}

async function ensureCompany(db: Executor, input: { name: string; email: string; planId: number; dueDate: string }) {
  const [existing] = await db.select().from(companies).where(eq(companies.name, input.name)).limit(1)
  if (existing) return existing
  const [company] = await db.insert(companies).values({ ...input, recurrence: 'MENSAL', status: true }).returning()
  await createDefaultSettings(db, company!.id)
  return company!
}

async function ensureUser(
  db: Executor,
  input: { companyId: number; name: string; email: string; profile: 'admin' | 'user'; super: boolean; password?: string },
  result: SeedResult,
) {
  if (await findUserByEmail(db, input.email)) return
  const password = input.password ?? generatedPassword()
  const { password: _plain, ...fields } = input
  await db.insert(users).values({ ...fields, passwordHash: await Bun.password.hash(password) })
  result.created.push({ email: input.email, password, role: input.super ? 'super user' : input.profile })
}

/**
 * The demo company's WhatsApp: a simulator connection, created once and started, so that a
 * newcomer can make a customer write in at once (POST /api/simulator/{id}/inbound, zapdesk sim send).
 */
export async function seedDemoConnection(deps: Deps, connections: ConnectionManager): Promise<{ whatsappId: number } | undefined> {
  const [demo] = await deps.db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO_COMPANY)).limit(1)
  if (!demo) return undefined
  const [existing] = await deps.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.companyId, demo.id)).limit(1)
  if (existing) return undefined
  const admin = await findUserByEmail(deps.db, DEMO_ADMIN_EMAIL)
  if (!admin || admin.companyId !== demo.id) return undefined
  const connection = await createWhatsapp(deps, connections, { userId: admin.id, companyId: demo.id, profile: 'admin', super: false }, {
    name: 'Demo WhatsApp (simulator)',
    provider: 'simulator',
    isDefault: true,
    greetingMessage: 'Olá {{name}}! Bem-vindo ao atendimento da Demo Company.',
  })
  return { whatsappId: connection.id }
}

/**
 * Key of the advisory lock that makes instances booting together on an empty database seed one after the
 * other (the CLI and tests seed too). Not db/client.ts' startup lock: main.ts seeds while holding that
 * one on another connection, and the same key would wait on itself.
 */
const SEED_LOCK = 7_277_018

export async function seedPlatform(db: Database, options: { adminPassword?: string; demo: boolean; today?: string }): Promise<SeedResult> {
  // Several instances started at once on a new database would each find no super user and insert one:
  // every other one would stop on the unique e-mail. Under the lock the later ones find what the first made.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`)
    return seedUnderLock(tx, options)
  })
}

async function seedUnderLock(db: Executor, options: { adminPassword?: string; demo: boolean; today?: string }): Promise<SeedResult> {
  const result: SeedResult = { created: [] }
  const today = options.today ?? new Date().toISOString().slice(0, 10)
  const platformPlan = await ensurePlan(db, 'Platform', { users: 100, connections: 100, queues: 100, value: 0, isPublic: false })
  const platform = await ensureCompany(db, { name: 'Zapdesk', email: SUPER_EMAIL, planId: platformPlan.id, dueDate: addMonths(today, 1200) })
  await ensureUser(db, { companyId: platform.id, name: 'Platform admin', email: SUPER_EMAIL, profile: 'admin', super: true, password: options.adminPassword }, result)
  if (options.demo) {
    const demoPlan = await ensurePlan(db, 'Demo (all features)', { users: 10, connections: 3, queues: 10, value: 49, isPublic: true })
    const demo = await ensureCompany(db, { name: DEMO_COMPANY, email: DEMO_ADMIN_EMAIL, planId: demoPlan.id, dueDate: addMonths(today, 12) })
    await ensureUser(db, { companyId: demo.id, name: 'Demo Admin', email: DEMO_ADMIN_EMAIL, profile: 'admin', super: false }, result)
    await ensureUser(db, { companyId: demo.id, name: 'Demo Agent', email: DEMO_AGENT_EMAIL, profile: 'user', super: false }, result)
  }
  return result
}
