// Services that record who acted (audit log, events) take an Actor: the CLI acts as the platform's
// first super user, the operator's own account on the platform.
import { asc, eq } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import type { Actor } from '../src/contracts/roles.ts'
import { CliError } from './output.ts'

export async function operatorActor(db: Database): Promise<Actor> {
  const [user] = await db.select({ id: users.id, companyId: users.companyId }).from(users).where(eq(users.super, true)).orderBy(asc(users.id)).limit(1)
  if (!user) throw new CliError('no super user yet (create one: zapdesk users create-super)')
  return { userId: user.id, companyId: user.companyId, profile: 'admin', super: true }
}
