// Public signup (§5 "Signup", §9 "Signup trial"): a company on a 3-day trial and its first admin.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { assertWithinRateLimit } from '../../core/rate-limit.ts'
import { todayIso } from '../auth/service.ts'
import { findPlanById } from '../plans/service.ts'
import { normalizeName, normalizePhone } from './fields.ts'
import type { Company, SignupBody } from './model.ts'
import { companyNameTaken, findCompanyView, userEmailTaken } from './queries.ts'
import { duplicateErrorOr, insertCompanyRecords } from './records.ts'
import { addDays } from './renewal.ts'

/** §5 "Signup": the mask (99) 99999-9999, at most 11 digits. */
const SIGNUP_PHONE_DIGITS = 11

export const SIGNUP_TRIAL_DAYS = 3

/**
 * Status, recurrence, due date and trial are set here, never taken from the request: the body
 * schema drops any such field a client sends.
 */
export async function signUp(deps: Deps, input: SignupBody & { ip: string }): Promise<Company> {
  const email = input.email.trim()
  await assertWithinRateLimit(deps.rateLimiter, [
    { key: `signup:ip:${input.ip}`, limit: deps.config.rateLimit.ipAttempts },
    { key: `signup:email:${email.toLowerCase()}` },
  ])
  const name = normalizeName(input.name)
  const userName = input.userName ? normalizeName(input.userName, 'userName') : name
  const phone = normalizePhone(input.phone, SIGNUP_PHONE_DIGITS)
  // Only a plan the signup page offers: an internal plan cannot be picked by guessing its id.
  if (!(await findPlanById(deps.db, input.planId))?.isPublic) throw new AppError('ERR_NO_PLAN_FOUND')
  // Cheap checks before the slow hash; the transaction checks again and the unique indexes settle races.
  if (await userEmailTaken(deps.db, email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS')
  if (await companyNameTaken(deps.db, name)) throw new AppError('ERR_COMPANY_NAME_ALREADY_EXISTS')
  const passwordHash = await Bun.password.hash(input.password)
  const trialEnd = addDays(todayIso(deps.now()), SIGNUP_TRIAL_DAYS)
  const created = await deps.db
    .transaction((tx) =>
      insertCompanyRecords(tx, {
        company: { name, email, phone, planId: input.planId, status: true, recurrence: 'MENSAL', dueDate: trialEnd, trialExpiration: trialEnd },
        campaignsEnabled: true,
        admin: { name: userName, email, passwordHash },
      }),
    )
    .catch((error: unknown) => {
      throw duplicateErrorOr(error)
    })
  const view = (await findCompanyView(deps.db, created.companyId))!
  deps.bus.emit('company.changed', { companyId: created.companyId, action: 'create', company: view })
  if (created.adminId) deps.bus.emit('user.changed', { companyId: created.companyId, action: 'create', userId: created.adminId })
  return view
}
