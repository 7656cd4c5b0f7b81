// The grace period (README "Subscription expiry"): how many days past its due date an unpaid company
// keeps working before it is blocked. Super users set it (a platform setting); until they do, it is
// SUBSCRIPTION_GRACE_DAYS. The blocking rule (core/subscription.ts) and the overdue reminder read it.
import type { Deps } from '../deps.ts'
import { GRACE_DAYS_SETTING, subscriptionGraceDays } from '../../core/subscription.ts'
import { savePlatformSetting } from '../platform-settings/service.ts'
import type { GracePeriod } from './model.ts'

export async function getGracePeriod(deps: Deps): Promise<GracePeriod> {
  return { graceDays: await subscriptionGraceDays(deps), defaultGraceDays: deps.config.subscriptionGraceDays }
}

export async function setGracePeriod(deps: Deps, input: { graceDays: number; userId: number }): Promise<GracePeriod> {
  await savePlatformSetting(deps.db, { key: GRACE_DAYS_SETTING, value: String(input.graceDays), now: deps.now() })
  deps.logger.info('grace period changed', { graceDays: input.graceDays, userId: input.userId })
  return getGracePeriod(deps)
}
