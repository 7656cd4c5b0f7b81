// Platform-wide options set by super users (key -> value): the 2FA policy, the audit log's retention.
import { eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { platformSettings } from '../../../db/schema/index.ts'

export async function getPlatformSetting(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, key)).limit(1)
  return row?.value
}

export async function savePlatformSetting(db: Executor, input: { key: string; value: string; now: Date }): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ key: input.key, value: input.value })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value: input.value, updatedAt: input.now } })
}
