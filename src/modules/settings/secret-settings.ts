// A setting that is a credential (the `asaas` token the platform charges its companies with) is
// sealed at rest (core/crypto/sealed-text.ts) and leaves the server masked: the settings list, the
// save's answer, the `settings` frame and the audit log carry "****" and its last 4 characters at most
// (core's mask rule). Only the code that uses it (billing's provider) opens it.
import { and, eq, inArray, ne, notLike } from 'drizzle-orm'
import { settings } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { isSealed, maskSecret, openText, sealText } from '../../core/crypto/sealed-text.ts'
import { isSecretSetting, settingKeys, type SettingKey } from './defaults.ts'
import { getSetting } from './queries.ts'

const boxOf = (deps: Pick<Deps, 'config'>) => createSecretBox(deps.config.secretsKey)

/** What is stored for a value: sealed for a credential, as it is otherwise. */
export function storedValueOf(deps: Pick<Deps, 'config'>, key: string, value: string): string {
  return isSecretSetting(key) ? sealText(boxOf(deps), value) : value
}

/** What is shown of a stored value: a credential opened then masked, anything else as it is. */
export function shownValueOf(deps: Pick<Deps, 'config'>, key: string, stored: string): string {
  return isSecretSetting(key) ? maskSecret(openText(boxOf(deps), stored)) : stored
}

/** A credential setting of a company, opened, for the code that uses it. */
export async function openSecretSetting(deps: Pick<Deps, 'db' | 'config'>, companyId: number, key: SettingKey): Promise<string> {
  return openText(boxOf(deps), await getSetting(deps.db, companyId, key))
}

/**
 * The boot migration for credentials stored before they were sealed (as sealLegacyPromptKeys): each
 * plain value is sealed in place; the update names the old value, so one changed meanwhile is left
 * to its writer. Returns how many.
 */
export async function sealLegacySecretSettings(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const secretKeys = settingKeys.filter(isSecretSetting)
  const rows = await deps.db
    .select({ companyId: settings.companyId, key: settings.key, value: settings.value })
    .from(settings)
    .where(and(inArray(settings.key, secretKeys), ne(settings.value, ''), notLike(settings.value, 'v1.%')))
  let sealed = 0
  for (const row of rows) {
    if (isSealed(row.value)) continue
    await deps.db
      .update(settings)
      .set({ value: sealText(boxOf(deps), row.value) })
      .where(and(eq(settings.companyId, row.companyId), eq(settings.key, row.key), eq(settings.value, row.value)))
    sealed++
  }
  return sealed
}
