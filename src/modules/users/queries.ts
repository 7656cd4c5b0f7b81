import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, settings, userQueues, users } from '../../../db/schema/index.ts'
import { isSecretSetting } from '../settings/defaults.ts'
import type { PublicUser, UserOption } from './model.ts'
import { containsPattern } from '../../core/sql.ts'

/** The user as the API shows him: without secrets, with his queues and his company's essentials. */
export async function findPublicUsers(db: Executor, scope: { companyId: number; userIds: number[] }): Promise<PublicUser[]> {
  if (scope.userIds.length === 0) return []
  const rows = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      name: users.name,
      email: users.email,
      profile: users.profile,
      super: users.super,
      whatsappId: users.whatsappId,
      allTicket: users.allTicket,
      online: users.online,
      language: users.language,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      companyName: companies.name,
      companyEmail: companies.email,
      companyDueDate: companies.dueDate,
      companyTrialExpiration: companies.trialExpiration,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, scope.companyId), inArray(users.id, scope.userIds)))
  const queueRows = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, and(eq(queues.id, userQueues.queueId), eq(queues.companyId, userQueues.companyId)))
    .where(and(eq(userQueues.companyId, scope.companyId), inArray(userQueues.userId, scope.userIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name))
  const storedSettings = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, scope.companyId))
    .orderBy(asc(settings.key))
  // Every signed-in user receives these: a credential (the payment token) stays on the admins' settings page.
  const companySettings = storedSettings.filter((setting) => !isSecretSetting(setting.key))
  const byId = new Map(rows.map((row) => [row.id, row]))
  const queuesByUser = new Map<number, PublicUser['queues']>()
  for (const { userId, ...fields } of queueRows) {
    const queue = { ...fields, UserQueue: { userId, queueId: fields.id } }
    const list = queuesByUser.get(userId)
    if (list) list.push(queue)
    else queuesByUser.set(userId, [queue])
  }
  return scope.userIds.flatMap((userId) => {
    const row = byId.get(userId)
    if (!row) return []
    const { companyName, companyEmail, companyDueDate, companyTrialExpiration, ...user } = row
    return [
      {
        ...user,
        queues: queuesByUser.get(userId) ?? [],
        company: { id: row.companyId, name: companyName, email: companyEmail, dueDate: companyDueDate, trialExpiration: companyTrialExpiration, settings: companySettings },
      },
    ]
  })
}

export async function findPublicUser(db: Executor, scope: { companyId: number; userId: number }): Promise<PublicUser | undefined> {
  const [user] = await findPublicUsers(db, { companyId: scope.companyId, userIds: [scope.userId] })
  return user
}

export async function findUserByEmail(db: Executor, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1)
  return user
}

export const USERS_PAGE_SIZE = 20

/** One page of the company's users, by name, searching name and e-mail: three queries whatever the page size. */
export async function findUserPage(db: Executor, scope: { companyId: number; searchParam?: string; pageNumber?: number }) {
  const search = scope.searchParam?.trim()
  const conditions = [eq(users.companyId, scope.companyId)]
  if (search) {
    const pattern = containsPattern(search)
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!)
  }
  const where = and(...conditions)
  const offset = ((scope.pageNumber ?? 1) - 1) * USERS_PAGE_SIZE
  const [total] = await db.select({ value: count() }).from(users).where(where)
  const ids = await db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(USERS_PAGE_SIZE)
    .offset(offset)
  const page = await findPublicUsers(db, { companyId: scope.companyId, userIds: ids.map((row) => row.id) })
  const matching = total?.value ?? 0
  return { users: page, count: matching, hasMore: offset + page.length < matching }
}

export async function findUserOptions(db: Executor, scope: { companyId: number }): Promise<UserOption[]> {
  const [rows, memberships] = await Promise.all([
    db
      .select({ id: users.id, name: users.name, email: users.email, profile: users.profile })
      .from(users)
      .where(eq(users.companyId, scope.companyId))
      .orderBy(asc(users.name), asc(users.id)),
    db
      .select({ userId: userQueues.userId, queueId: userQueues.queueId })
      .from(userQueues)
      .where(eq(userQueues.companyId, scope.companyId))
      .orderBy(asc(userQueues.queueId)),
  ])
  const queueIds = new Map<number, number[]>()
  for (const membership of memberships) queueIds.set(membership.userId, [...(queueIds.get(membership.userId) ?? []), membership.queueId])
  return rows.map((row) => ({ ...row, queueIds: queueIds.get(row.id) ?? [] }))
}

/** The stored row (with secrets) of a user of this company, for the services' checks. */
export async function findCompanyUser(db: Executor, scope: { companyId: number; userId: number }) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, scope.companyId), eq(users.id, scope.userId)))
    .limit(1)
  return user
}

/** Whether another user (anywhere on the platform) already signs in with this e-mail. */
export async function emailTaken(db: Executor, email: string, exceptUserId?: number): Promise<boolean> {
  const conditions = [sql`lower(${users.email}) = ${email.trim().toLowerCase()}`]
  if (exceptUserId !== undefined) conditions.push(ne(users.id, exceptUserId))
  const [row] = await db.select({ id: users.id }).from(users).where(and(...conditions)).limit(1)
  return row !== undefined
}

export async function findUserQueueIds(db: Executor, scope: { companyId: number; userId: number }): Promise<number[]> {
  const rows = await db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(and(eq(userQueues.companyId, scope.companyId), eq(userQueues.userId, scope.userId)))
  return rows.map((row) => row.queueId)
}

