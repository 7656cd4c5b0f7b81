import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, settings, userQueues, users } from '../../../db/schema/index.ts'
import type { PublicUser } from './model.ts'

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
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      companyName: companies.name,
      companyDueDate: companies.dueDate,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, scope.companyId), inArray(users.id, scope.userIds)))
  const queueRows = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(and(eq(userQueues.companyId, scope.companyId), inArray(userQueues.userId, scope.userIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name))
  const companySettings = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, scope.companyId))
    .orderBy(asc(settings.key))
  const byId = new Map(rows.map((row) => [row.id, row]))
  return scope.userIds.flatMap((userId) => {
    const row = byId.get(userId)
    if (!row) return []
    const { companyName, companyDueDate, ...user } = row
    return [
      {
        ...user,
        queues: queueRows.filter((queue) => queue.userId === userId).map(({ userId: _owner, ...queue }) => queue),
        company: { id: row.companyId, name: companyName, dueDate: companyDueDate, settings: companySettings },
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
