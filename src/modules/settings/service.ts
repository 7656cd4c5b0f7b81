// A company's options page: read by everyone signed in, changed by admins, values checked against §9.
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { isSecretSetting, isSettingKey, settingDefinitions, settingKeys } from './defaults.ts'
import type { Setting } from './model.ts'
import { getSettings, saveSetting } from './queries.ts'
import { shownValueOf, storedValueOf } from './secret-settings.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'

/** One setting of a company (its default when unset), for the other modules and the channels. */
export { getSetting, listCompaniesWithSetting } from './queries.ts'
/** A credential setting, opened (it is sealed at rest), and the boot migration that seals old ones. */
export { openSecretSetting, sealLegacySecretSettings } from './secret-settings.ts'

/** Every known key in a stable order; a credential (the payment token) only for admins, masked. */
export async function listSettings(deps: Deps, caller: Actor): Promise<Setting[]> {
  const values = await getSettings(deps.db, caller.companyId)
  const admin = isAdmin(caller)
  return settingKeys.filter((key) => admin || !isSecretSetting(key)).map((key) => ({ key, value: shownValueOf(deps, key, values[key]) }))
}

export async function updateSetting(deps: Deps, caller: Actor, key: string, rawValue: string): Promise<Setting> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND')
  const { allowed, validate } = settingDefinitions[key]!
  const value = rawValue.trim()
  if (allowed && !allowed.includes(value)) {
    throw invalidField('value', `value must be one of: ${allowed.join(', ')}`)
  }
  const refused = validate?.(value)
  if (refused) throw invalidField('value', refused)
  await saveSetting(deps.db, caller.companyId, key, storedValueOf(deps, key, value))
  // A credential goes on masked: to the admins' frame, the audit log and this answer.
  const shown = isSecretSetting(key) ? shownValueOf(deps, key, value) : value
  await deps.bus.emit('setting.changed', { companyId: caller.companyId, key, value: shown })
  return { key, value: shown }
}
