// Sign-in hardening (issue 11, items 6 and 10a-c): throttling instead of lockout, the client address
// behind proxies, no account enumeration by timing, a logout that proves the session, one password rule.
import { afterEach, describe, expect, setSystemTime, spyOn, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makePlan, makeSuper, makeUser, signIn } from '../helpers/factories.ts'

// One trusted proxy: the client address is the right end of X-Forwarded-For.
const context = await createTestContext({ config: { trustProxy: 1 } })

function loginFrom(forwardedFor: string, body: { email: string; password: string }) {
  return context.app.handle(
    new Request('http://local/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify(body),
    }),
  )
}

afterEach(() => setSystemTime())

describe('throttling, not lockout (item 6)', () => {
  test('ten wrong passwords from one address do not lock the account against the right one from another', async () => {
    const company = await makeCompany(context.db)
    const superUser = await makeUser(context.db, { companyId: company.id, super: true })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 12; attempt++) {
      statuses.push((await loginFrom('203.0.113.10', { email: superUser.email, password: 'wrong-guess' })).status)
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.at(-1)).toBe(429)
    const fromOffice = await loginFrom('198.51.100.7', { email: superUser.email, password: superUser.password })
    expect(fromOffice.status).toBe(200)
  })

  test('after five failures the pair waits a growing delay, told in Retry-After', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const start = Date.now()
    setSystemTime(new Date(start))
    for (let attempt = 0; attempt < 5; attempt++) expect((await loginFrom('203.0.113.20', { email: user.email, password: 'nope-nope' })).status).toBe(401)
    const throttled = await loginFrom('203.0.113.20', { email: user.email, password: user.password })
    expect(throttled.status).toBe(429)
    expect(((await throttled.json()) as { error: string }).error).toBe('ERR_TOO_MANY_REQUESTS')
    expect(throttled.headers.get('retry-after')).toBe('1')
    // A second later the pair may try again; a sixth failure doubles the wait.
    setSystemTime(new Date(start + 1_100))
    expect((await loginFrom('203.0.113.20', { email: user.email, password: 'nope-nope' })).status).toBe(401)
    const again = await loginFrom('203.0.113.20', { email: user.email, password: user.password })
    expect(again.status).toBe(429)
    expect(again.headers.get('retry-after')).toBe('2')
    setSystemTime(new Date(start + 3_200))
    expect((await loginFrom('203.0.113.20', { email: user.email, password: user.password })).status).toBe(200)
  })

  test('with TRUST_PROXY the address is the right end of X-Forwarded-For: a forged left end changes nothing', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push((await loginFrom(`10.0.0.${attempt}, 203.0.113.30`, { email: user.email, password: 'nope-nope' })).status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })

  test('without TRUST_PROXY X-Forwarded-For is ignored', async () => {
    const direct = await createTestContext({ config: { rateLimit: { attempts: 100, ipAttempts: 2, windowSeconds: 60 } } })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await direct.app.handle(
        new Request('http://local/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${attempt}` },
          body: JSON.stringify({ email: `probe${attempt}@example.com`, password: 'guess' }),
        }),
      )
      statuses.push(response.status)
    }
    expect(statuses).toEqual([401, 401, 429])
  })
})

describe('no account enumeration by timing (item 10a)', () => {
  test('an unknown e-mail costs a password hash check like a wrong password', async () => {
    const verify = spyOn(Bun.password, 'verify')
    try {
      const unknown = await loginFrom('203.0.113.40', { email: 'nobody-at-all@example.com', password: 'whatever-it-is' })
      expect(unknown.status).toBe(401)
      expect(verify).toHaveBeenCalledTimes(1)
    } finally {
      verify.mockRestore()
    }
  })
})

describe('logout proves the session it ends (item 10b)', () => {
  test('a cookie with the session id but a wrong secret ends nothing', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const session = await signIn(context, user)
    const sessionId = session.cookie.slice('jrt='.length).split('.')[0]!
    const forged = await context.withCookie(`jrt=${sessionId}.${'x'.repeat(43)}`).api.auth.logout.delete()
    expect(forged.status).toBe(200)
    const [row] = await context.db.select().from(sessions).where(eq(sessions.id, sessionId))
    expect(row!.revokedAt).toBeNull()
    expect((await context.as(session.token).api.auth.me.get()).status).toBe(200)
    // The real cookie still ends it.
    await context.withCookie(session.cookie).api.auth.logout.delete()
    const [ended] = await context.db.select().from(sessions).where(eq(sessions.id, sessionId))
    expect(ended!.revokedAt).not.toBeNull()
    expect(errorOf(await context.as(session.token).api.auth.me.get())).toEqual({ error: 'ERR_UNAUTHORIZED' })
  })
})

describe('one password rule, and the current password to change your own (item 10c)', () => {
  test("a 5-character password is refused everywhere a password is set; your own needs the current one; an admin sets another's without it", async () => {
    const company = await makeCompany(context.db)
    const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const agent = await makeUser(context.db, { companyId: company.id })
    const asAdmin = context.as((await signIn(context, admin)).token)
    const weakCreate = await asAdmin.api.users.post({ name: 'Weak One', email: `weak-${Date.now()}@example.com`, password: 'abcde' })
    expect(weakCreate.status).toBe(422)
    expect(fieldsOf(weakCreate)).toEqual(['password'])
    const weakEdit = await asAdmin.api.users({ id: agent.id }).put({ name: 'Agent', email: agent.email, password: 'abcdefgh' })
    expect(fieldsOf(weakEdit)).toEqual(['password'])

    const agentSession = await signIn(context, agent)
    const asAgent = context.as(agentSession.token)
    const weakProfile = await asAgent.api.users({ id: agent.id }).put({ name: 'Agent', email: agent.email, password: '12345' })
    expect(fieldsOf(weakProfile)).toEqual(['password'])
    const noCurrent = await asAgent.api.users({ id: agent.id }).put({ name: 'Agent', email: agent.email, password: 'Stolen1234' })
    expect(noCurrent.status).toBe(422)
    expect(fieldsOf(noCurrent)).toEqual(['currentPassword'])
    const wrongCurrent = await asAgent.api.users({ id: agent.id }).put({ name: 'Agent', email: agent.email, password: 'Stolen1234', currentPassword: 'Guess1234' })
    expect(fieldsOf(wrongCurrent)).toEqual(['currentPassword'])
    expect((await loginFrom('203.0.113.50', { email: agent.email, password: agent.password })).status).toBe(200)

    const own = await context
      .as((await signIn(context, agent)).token)
      .api.users({ id: agent.id })
      .put({ name: 'Agent', email: agent.email, password: 'Mine12345', currentPassword: agent.password })
    expect(own.status).toBe(200)
    const byAdmin = await asAdmin.api.users({ id: agent.id }).put({ name: 'Agent', email: agent.email, password: 'Reset12345' })
    expect(byAdmin.status).toBe(200)
    expect((await loginFrom('203.0.113.51', { email: agent.email, password: 'Reset12345' })).status).toBe(200)
  })
})

describe('the same rule for a company\'s first admin (item 10c)', () => {
  test('sign-up and a super user creating a company refuse a password outside the rule', async () => {
    const plan = await makePlan(context.db, { isPublic: true })
    const suffix = `${process.pid}-${Date.now()}`
    for (const password of ['abc12', 'secret-12', 'SECRET-12', 'Secret-x']) {
      const signup = await context.api.api.companies.cadastro.post({ name: `Weak ${suffix} ${password}`, email: `weak-${suffix}-${password.length}@example.com`, password, planId: plan.id })
      expect(signup.status).toBe(422)
      expect(fieldsOf(signup)).toEqual(['password'])
    }
    const platform = await makeSuper(context)
    const created = await platform.client.api.companies.post({ name: `Weak Admin ${suffix}`, planId: plan.id, email: `boss-${suffix}@example.com`, password: 'abcde' })
    expect(created.status).toBe(422)
    expect(fieldsOf(created)).toEqual(['password'])
  })
})
