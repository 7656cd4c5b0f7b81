// Who must have a second factor: admins and super users, when their company (setting
// twoFactorRequired, set by its admins) or the platform (set by super users) requires it.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { isAdmin, type Actor } from '../../contracts/roles.ts'
import { getSetting } from '../settings/service.ts'
import { getPlatformSetting, savePlatformSetting } from '../platform-settings/service.ts'

const PLATFORM_KEY = 'twoFactorRequired'

export async function isPlatformTwoFactorRequired(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return (await getPlatformSetting(deps.db, PLATFORM_KEY)) === 'enabled'
}

export async function isTwoFactorRequired(deps: Pick<Deps, 'db'>, user: { companyId: number; profile: string; super: boolean }): Promise<boolean> {
  if (!isAdmin(user)) return false
  if (await isPlatformTwoFactorRequired(deps)) return true
  return (await getSetting(deps.db, user.companyId, 'twoFactorRequired')) === 'enabled'
}

/** Super users only: the platform-wide rule for every admin and super user. */
export async function setPlatformTwoFactorPolicy(deps: Deps, caller: Actor, required: boolean): Promise<{ required: boolean }> {
  if (!caller.super) throw new AppError('ERR_NO_PERMISSION')
  await savePlatformSetting(deps.db, { key: PLATFORM_KEY, value: required ? 'enabled' : 'disabled', now: deps.now() })
  return { required }
}
