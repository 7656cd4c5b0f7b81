// Drizzle access to password-reset codes. Not a tenant table: a code belongs to one user.
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { passwordResets } from '../../../db/schema/index.ts'

/** Ends every code of the user that could still be used, so only the newest one works. */
export async function expireOpenResetCodes(db: Executor, input: { userId: number; now: Date }): Promise<void> {
  await db
    .update(passwordResets)
    .set({ expiresAt: input.now })
    .where(and(eq(passwordResets.userId, input.userId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, input.now)))
}

export async function insertResetCode(db: Executor, input: { userId: number; codeHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(passwordResets).values(input)
}

/** The user's newest code that is unused, unexpired and still has attempts left. */
export async function findOpenResetCode(db: Executor, input: { userId: number; now: Date; maxAttempts: number }) {
  const [row] = await db
    .select()
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, input.userId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, input.now),
        lt(passwordResets.attempts, input.maxAttempts),
      ),
    )
    .orderBy(desc(passwordResets.createdAt), desc(passwordResets.id))
    .limit(1)
  return row
}

/**
 * Spends one attempt before the code is compared, atomically, so parallel guesses cannot exceed
 * the budget. False when the code ran out of attempts or was used meanwhile.
 */
export async function countResetAttempt(db: Executor, input: { resetId: number; maxAttempts: number }): Promise<boolean> {
  const counted = await db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(and(eq(passwordResets.id, input.resetId), isNull(passwordResets.usedAt), lt(passwordResets.attempts, input.maxAttempts)))
    .returning({ id: passwordResets.id })
  return counted.length > 0
}

/** Marks the code used; false if another request used it first. */
export async function markResetCodeUsed(db: Executor, input: { resetId: number; now: Date }): Promise<boolean> {
  const used = await db
    .update(passwordResets)
    .set({ usedAt: input.now })
    .where(and(eq(passwordResets.id, input.resetId), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id })
  return used.length > 0
}
