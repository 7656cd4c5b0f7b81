// Drizzle access for the second factor and the platform's 2FA policy. Only the auth module imports it.
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { users, userTwoFactor } from '../../../db/schema/index.ts'

export type TwoFactorRow = typeof userTwoFactor.$inferSelect

export async function findTwoFactor(db: Executor, input: { userId: number }): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, input.userId)).limit(1)
  return row
}

/** A new pending secret replaces any earlier pending one; an enabled factor is never overwritten here. */
export async function savePendingSecret(db: Executor, input: { userId: number; companyId: number; sealedSecret: string; now: Date }): Promise<boolean> {
  const saved = await db
    .insert(userTwoFactor)
    .values({ userId: input.userId, companyId: input.companyId, sealedSecret: input.sealedSecret })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { sealedSecret: input.sealedSecret, companyId: input.companyId, lastStep: 0, recoveryCodeHashes: [], updatedAt: input.now },
      setWhere: sql`${userTwoFactor.enabledAt} IS NULL`,
    })
    .returning({ userId: userTwoFactor.userId })
  return saved.length > 0
}

/** Records the step a code was accepted at; false when that step (or a later one) was used already. */
export async function claimStep(db: Executor, input: { userId: number; step: number; now: Date }): Promise<boolean> {
  const claimed = await db
    .update(userTwoFactor)
    .set({ lastStep: input.step, updatedAt: input.now })
    .where(and(eq(userTwoFactor.userId, input.userId), sql`${userTwoFactor.lastStep} < ${input.step}`))
    .returning({ userId: userTwoFactor.userId })
  return claimed.length > 0
}

export async function enableTwoFactor(db: Executor, input: { userId: number; recoveryCodeHashes: string[]; now: Date }): Promise<void> {
  await db
    .update(userTwoFactor)
    .set({ enabledAt: input.now, recoveryCodeHashes: input.recoveryCodeHashes, updatedAt: input.now })
    .where(eq(userTwoFactor.userId, input.userId))
}

/** Removes one recovery code atomically: of two sign-ins racing with the same code, one wins. */
export async function consumeRecoveryCode(db: Executor, input: { userId: number; codeHash: string; now: Date }): Promise<boolean> {
  const used = await db
    .update(userTwoFactor)
    .set({ recoveryCodeHashes: sql`array_remove(${userTwoFactor.recoveryCodeHashes}, ${input.codeHash})`, updatedAt: input.now })
    .where(and(eq(userTwoFactor.userId, input.userId), isNotNull(userTwoFactor.enabledAt), sql`${input.codeHash} = ANY(${userTwoFactor.recoveryCodeHashes})`))
    .returning({ userId: userTwoFactor.userId })
  return used.length > 0
}

export async function deleteTwoFactor(db: Executor, input: { userId: number }): Promise<boolean> {
  const deleted = await db.delete(userTwoFactor).where(eq(userTwoFactor.userId, input.userId)).returning({ userId: userTwoFactor.userId })
  return deleted.length > 0
}


/** The sign-in fields of a user by id, whatever the company (the caller checks who may see it). */
export async function findUserForTwoFactor(db: Executor, input: { userId: number }) {
  const [row] = await db
    .select({ id: users.id, companyId: users.companyId, email: users.email, name: users.name, profile: users.profile, super: users.super, passwordHash: users.passwordHash, tokenVersion: users.tokenVersion })
    .from(users)
    .where(eq(users.id, input.userId))
    .limit(1)
  return row
}
