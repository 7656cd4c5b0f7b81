// TOTP two-factor sign-in: enrolment, the two-step login, single-use recovery codes, rate limits,
// the company and platform policy, an admin's reset, and another company's users.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { settings, userTwoFactor } from '../../db/schema/index.ts'
import { and } from 'drizzle-orm'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makeSuper, makeTenant, makeUser, signIn } from '../helpers/factories.ts'

let time = Date.parse('2026-11-20T12:00:00Z')
const context = await createTestContext({ now: () => new Date(time) })

/** Moves the clock to the next 30 s step: a code is accepted once per step. */
function nextStep() {
  time += 30_000
}

function codeOf(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: time })
}

type User = { email: string; password: string }

/** Signs in, enrols 2FA from the profile, and returns the secret and the recovery codes. */
async function enrol(context: TestContext, user: User) {
  const session = await signIn(context, user)
  const client = context.as(session.token)
  const setup = await client.api.auth['two-factor'].setup.post()
  expect(setup.status).toBe(200)
  const confirmed = await client.api.auth['two-factor'].confirm.post({ code: codeOf(setup.data!.secret) })
  expect(confirmed.status).toBe(200)
  nextStep()
  return { secret: setup.data!.secret, recoveryCodes: confirmed.data!.recoveryCodes, client }
}

async function challengeOf(user: User): Promise<{ status: number; error: string; challengeToken: string }> {
  const result = await context.api.api.auth.login.post({ email: user.email, password: user.password })
  const body = errorOf(result)!
  return { status: result.status, error: body.error, challengeToken: body.challengeToken as string }
}

describe('enrolment', () => {
  test('a secret shown once as an otpauth URI, sealed at rest, on only after a first right code', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const client = context.as((await signIn(context, user)).token)
    const setup = await client.api.auth['two-factor'].setup.post()
    expect(setup.data!.uri).toStartWith('otpauth://totp/Zapdesk:')
    expect(setup.data!.uri).toContain(`secret=${setup.data!.secret}`)
    const [row] = await context.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id))
    expect(row!.sealedSecret).not.toContain(setup.data!.secret)
    expect(row!.enabledAt).toBeNull()
    // Pending: the password alone still signs in.
    expect((await context.api.api.auth.login.post(user)).status).toBe(200)
    const again = context.as((await signIn(context, user)).token)

    const wrong = await again.api.auth['two-factor'].confirm.post({ code: '000000' })
    expect(wrong.status).toBe(400)
    expect(errorOf(wrong)).toEqual({ error: 'ERR_INVALID_TWO_FACTOR_CODE' })
    const confirmed = await again.api.auth['two-factor'].confirm.post({ code: codeOf(setup.data!.secret) })
    expect(confirmed.status).toBe(200)
    expect(confirmed.data!.recoveryCodes).toHaveLength(10)
    expect(new Set(confirmed.data!.recoveryCodes).size).toBe(10)
    const status = await again.api.auth['two-factor'].get()
    expect(status.data).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 })
    // Stored hashed, never as given.
    const [enabled] = await context.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id))
    expect(enabled!.recoveryCodeHashes.join()).not.toContain(confirmed.data!.recoveryCodes[0]!)
    // A second enrolment would replace the secret: refused while on.
    expect((await again.api.auth['two-factor'].setup.post()).status).toBe(409)
  })
})

describe('two-step sign-in', () => {
  test('the password gives a challenge, not a session; the challenge and a code give the usual answer', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const { secret } = await enrol(context, user)
    const first = await context.api.api.auth.login.post(user)
    expect(first.status).toBe(401)
    expect(first.response.headers.get('set-cookie') ?? '').not.toContain('jrt=')
    const challenge = await challengeOf(user)
    expect(challenge.error).toBe('ERR_TWO_FACTOR_REQUIRED')
    expect(challenge.challengeToken).toBeString()

    const wrong = await context.api.api.auth.login['two-factor'].post({ challengeToken: challenge.challengeToken, code: '123456' })
    expect(errorOf(wrong)).toEqual({ error: 'ERR_INVALID_TWO_FACTOR_CODE' })
    const code = codeOf(secret)
    const signedIn = await context.api.api.auth.login['two-factor'].post({ challengeToken: challenge.challengeToken, code })
    expect(signedIn.status).toBe(200)
    expect(signedIn.data!.user).toMatchObject({ id: user.id, companyId: company.id })
    expect(signedIn.data!.recoveryCodes).toBeUndefined()
    expect(signedIn.response.headers.get('set-cookie')).toContain('jrt=')
    expect((await context.as(signedIn.data!.token).api.auth.me.get()).status).toBe(200)
    // The same code again (a replay) is refused within its step.
    const replay = await context.api.api.auth.login['two-factor'].post({ challengeToken: (await challengeOf(user)).challengeToken, code })
    expect(errorOf(replay)).toEqual({ error: 'ERR_INVALID_TWO_FACTOR_CODE' })
  })

  test('a forged, expired or stale challenge is refused', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const { secret } = await enrol(context, user)
    const { challengeToken } = await challengeOf(user)
    const [body, signature] = challengeToken.split('.')
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), userId: 1 })).toString('base64url')
    expect((await context.api.api.auth.login['two-factor'].post({ challengeToken: `${forgedBody}.${signature}`, code: codeOf(secret) })).status).toBe(401)
    time += 6 * 60_000
    const late = await context.api.api.auth.login['two-factor'].post({ challengeToken, code: codeOf(secret) })
    expect(errorOf(late)).toEqual({ error: 'ERR_UNAUTHORIZED' })
  })

  test('a recovery code works once', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const { recoveryCodes } = await enrol(context, user)
    const used = await context.api.api.auth.login['two-factor'].post({ challengeToken: (await challengeOf(user)).challengeToken, code: recoveryCodes[3]!.toUpperCase() })
    expect(used.status).toBe(200)
    const again = await context.api.api.auth.login['two-factor'].post({ challengeToken: (await challengeOf(user)).challengeToken, code: recoveryCodes[3]! })
    expect(errorOf(again)).toEqual({ error: 'ERR_INVALID_TWO_FACTOR_CODE' })
    const status = await context.as(used.data!.token).api.auth['two-factor'].get()
    expect(status.data!.recoveryCodesLeft).toBe(9)
  })

  test('wrong codes are rate-limited like passwords', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const { secret } = await enrol(context, user)
    const { challengeToken } = await challengeOf(user)
    let last = 0
    for (let attempt = 0; attempt <= context.deps.config.rateLimit.attempts; attempt++) {
      last = (await context.api.api.auth.login['two-factor'].post({ challengeToken, code: '000000' })).status
    }
    expect(last).toBe(429)
    // Even the right code waits for the window: guessing cannot continue.
    expect((await context.api.api.auth.login['two-factor'].post({ challengeToken, code: codeOf(secret) })).status).toBe(429)
  })

  test('turning it off needs a current code or the password', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const { secret } = await enrol(context, user)
    const signedIn = await context.api.api.auth.login['two-factor'].post({ challengeToken: (await challengeOf(user)).challengeToken, code: codeOf(secret) })
    nextStep()
    const client = context.as(signedIn.data!.token)
    expect(fieldsOf(await client.api.auth['two-factor'].disable.post({}))).toEqual(['code'])
    expect(fieldsOf(await client.api.auth['two-factor'].disable.post({ password: 'wrong-password' }))).toEqual(['password'])
    expect((await client.api.auth['two-factor'].disable.post({ code: '000000' })).status).toBe(400)
    nextStep()
    expect((await client.api.auth['two-factor'].disable.post({ code: codeOf(secret) })).status).toBe(200)
    expect((await context.api.api.auth.login.post(user)).status).toBe(200)
  })
})

describe('an admin resets a user', () => {
  test("his company's users only; not a super user; the user signs in with the password again", async () => {
    const tenant = await makeTenant(context)
    await enrol(context, tenant.agent)
    const other = await makeTenant(context)
    const foreign = await other.asAdmin.api.users({ id: tenant.agent.id })['two-factor'].delete()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    const admin = context.as((await signIn(context, tenant.admin)).token)
    const colleague = await makeUser(context.db, { companyId: tenant.company.id })
    const agentClient = context.as((await signIn(context, colleague)).token)
    expect((await agentClient.api.users({ id: tenant.agent.id })['two-factor'].delete()).status).toBe(403)
    expect((await context.api.api.auth.login.post(tenant.agent)).status).toBe(401)

    expect((await admin.api.users({ id: tenant.agent.id })['two-factor'].delete()).status).toBe(200)
    expect((await context.api.api.auth.login.post(tenant.agent)).status).toBe(200)
    expect((await admin.api.users({ id: 999_999 })['two-factor'].delete()).status).toBe(404)

    const superUser = await makeUser(context.db, { companyId: tenant.company.id, profile: 'admin', super: true })
    await enrol(context, superUser)
    expect((await admin.api.users({ id: superUser.id })['two-factor'].delete()).status).toBe(403)
  })

  test("a super user resets anyone's", async () => {
    const tenant = await makeTenant(context)
    await enrol(context, tenant.admin)
    const platform = await makeSuper(context)
    expect((await platform.client.api.users({ id: tenant.admin.id })['two-factor'].delete()).status).toBe(200)
    expect((await context.api.api.auth.login.post(tenant.admin)).status).toBe(200)
  })
})

describe('policy', () => {
  test("a company requiring 2FA sends its admins (not its agents) to enrolment right after the password", async () => {
    const tenant = await makeTenant(context)
    expect((await tenant.asAgent.api.settings({ key: 'twoFactorRequired' }).put({ value: 'enabled' })).status).toBe(403)
    expect((await tenant.asAdmin.api.settings({ key: 'twoFactorRequired' }).put({ value: 'enabled' })).status).toBe(200)
    expect((await context.api.api.auth.login.post(tenant.agent)).status).toBe(200)
    const challenge = await challengeOf(tenant.admin)
    expect(challenge).toMatchObject({ status: 401, error: 'ERR_TWO_FACTOR_SETUP_REQUIRED' })
    // The setup challenge cannot be answered with no factor, and does not open a session by itself.
    const early = await context.api.api.auth.login['two-factor'].post({ challengeToken: challenge.challengeToken, code: '123456' })
    expect(early.status).toBe(400)
    const setup = await context.api.api.auth.login['two-factor'].setup.post({ challengeToken: challenge.challengeToken })
    expect(setup.status).toBe(200)
    const done = await context.api.api.auth.login['two-factor'].post({ challengeToken: challenge.challengeToken, code: codeOf(setup.data!.secret) })
    expect(done.status).toBe(200)
    expect(done.data!.recoveryCodes).toHaveLength(10)
    nextStep()
    // From now on the admin has a factor: the usual challenge.
    expect((await challengeOf(tenant.admin)).error).toBe('ERR_TWO_FACTOR_REQUIRED')
    // A verify challenge cannot be spent on enrolling a new secret.
    expect((await context.api.api.auth.login['two-factor'].setup.post({ challengeToken: (await challengeOf(tenant.admin)).challengeToken })).status).toBe(409)
    await context.db.update(settings).set({ value: 'disabled' }).where(and(eq(settings.companyId, tenant.company.id), eq(settings.key, 'twoFactorRequired')))
  })

  test('the platform policy: set by super users only, binds every admin and super user', async () => {
    const tenant = await makeTenant(context)
    const platform = await makeSuper(context)
    expect((await tenant.asAdmin.api.auth['two-factor']['platform-policy'].put({ required: true })).status).toBe(403)
    expect((await platform.client.api.auth['two-factor']['platform-policy'].put({ required: true })).data).toEqual({ required: true })
    try {
      expect((await challengeOf(tenant.admin)).error).toBe('ERR_TWO_FACTOR_SETUP_REQUIRED')
      expect((await challengeOf(platform.user)).error).toBe('ERR_TWO_FACTOR_SETUP_REQUIRED')
      expect((await context.api.api.auth.login.post(tenant.agent)).status).toBe(200)
      expect((await platform.client.api.auth['two-factor']['platform-policy'].get()).data).toEqual({ required: true })
    } finally {
      await platform.client.api.auth['two-factor']['platform-policy'].put({ required: false })
    }
    expect((await context.api.api.auth.login.post(tenant.admin)).status).toBe(200)
  })
})
