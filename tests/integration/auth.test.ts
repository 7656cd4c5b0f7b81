import { describe, expect, setSystemTime, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { companies, sessions } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { daysFromToday, makeCompany, makeTenant, makeUser, signIn } from '../helpers/factories.ts'

const context = await createTestContext()

describe('POST /api/auth/login', () => {
  test('signs in with the right password and sets an httpOnly refresh cookie', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id, profile: 'admin', email: 'Mixed.Case@Example.com' })
    const { data, response } = await context.api.api.auth.login.post({ email: 'mixed.case@example.com', password: user.password })
    expect(response.status).toBe(200)
    expect(data!.token).toBeString()
    expect(data!.user).toMatchObject({ id: user.id, companyId: company.id, profile: 'admin', company: { id: company.id, name: company.name, dueDate: company.dueDate } })
    expect(data!.user.company.settings.find((setting) => setting.key === 'userRating')).toEqual({ key: 'userRating', value: 'disabled' })
    expect(JSON.stringify(data)).not.toContain('passwordHash')
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toContain('jrt=')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
  })

  test('refuses a wrong password and an unknown e-mail with the same error', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const wrong = await context.api.api.auth.login.post({ email: user.email, password: 'nope-nope' })
    const unknown = await context.api.api.auth.login.post({ email: 'nobody@example.com', password: 'whatever' })
    expect(wrong.status).toBe(401)
    expect(errorOf(wrong)).toEqual({ error: 'ERR_INVALID_CREDENTIALS' })
    expect(unknown.status).toBe(401)
    expect(errorOf(unknown)).toEqual({ error: 'ERR_INVALID_CREDENTIALS' })
  })

  test('validates the body and names the field', async () => {
    const result = await context.api.api.auth.login.post({ email: 'not-an-email', password: '' })
    expect(result.status).toBe(422)
    expect(errorOf(result)!.error).toBe('ERR_VALIDATION')
    expect(fieldsOf(result)).toContain('email')
  })

  test('refuses a company whose due date has passed, with the date, but not a super user', async () => {
    const company = await makeCompany(context.db, { dueDate: daysFromToday(-2) })
    const user = await makeUser(context.db, { companyId: company.id })
    const { status, error } = await context.api.api.auth.login.post({ email: user.email, password: user.password })
    expect(status).toBe(403)
    expect(errorOf({ error })).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: company.dueDate })
    const superUser = await makeUser(context.db, { companyId: company.id, super: true })
    const asSuper = await context.api.api.auth.login.post({ email: superUser.email, password: superUser.password })
    expect(asSuper.status).toBe(200)
  })

  test('is rate-limited per e-mail', async () => {
    const email = 'target@example.com'
    let last = 0
    for (let attempt = 0; attempt <= context.deps.config.rateLimit.attempts; attempt++) {
      last = (await context.api.api.auth.login.post({ email, password: 'guess' })).status
    }
    expect(last).toBe(429)
  })
})

describe('tokens and sessions', () => {
  test('GET /api/auth/me needs a token: none or a forged one is 401', async () => {
    const none = await context.api.api.auth.me.get()
    expect(none.status).toBe(401)
    expect(errorOf(none)).toEqual({ error: 'ERR_UNAUTHORIZED' })
    const forged = await context.as('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.bad').api.auth.me.get()
    expect(forged.status).toBe(401)
  })

  test('an expired access token is 403 ERR_SESSION_EXPIRED, and refresh rotates the cookie', async () => {
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    try {
      setSystemTime(new Date(Date.now() + 60 * 60_000))
      const expired = await context.as(session.token).api.auth.me.get()
      expect(expired.status).toBe(403)
      expect(errorOf(expired)).toEqual({ error: 'ERR_SESSION_EXPIRED' })
    } finally {
      setSystemTime()
    }
    const refreshed = await context.withCookie(session.cookie).api.auth.refresh_token.post()
    expect(refreshed.status).toBe(200)
    const rotatedCookie = refreshed.response.headers.get('set-cookie')!.split(';')[0]!
    expect(rotatedCookie).not.toBe(session.cookie)
    const me = await context.as(refreshed.data!.token).api.auth.me.get()
    expect(me.data!.id).toBe(tenant.agent.id)
    // The old refresh token is spent. Past the grace window, using it again ends the session (theft).
    setSystemTime(new Date(Date.now() + 31_000))
    try {
      const replay = await context.withCookie(session.cookie).api.auth.refresh_token.post()
      expect(replay.status).toBe(401)
      const afterReplay = await context.withCookie(rotatedCookie).api.auth.refresh_token.post()
      expect(afterReplay.status).toBe(401)
    } finally {
      setSystemTime()
    }
  })

  test('a refresh whose answer was lost can be retried with the previous cookie for a short while', async () => {
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const lost = await context.withCookie(session.cookie).api.auth.refresh_token.post()
    expect(lost.status).toBe(200)
    // The browser never stored the rotated cookie and retries with the old one at once: it is handed
    // the very cookie it missed, and nothing rotates further.
    const retried = await context.withCookie(session.cookie).api.auth.refresh_token.post()
    expect(retried.status).toBe(200)
    const missed = lost.response.headers.get('set-cookie')!.split(';')[0]!
    expect(retried.response.headers.get('set-cookie')!.split(';')[0]!).toBe(missed)
    const next = await context.withCookie(missed).api.auth.refresh_token.post()
    expect(next.status).toBe(200)
    // Two rotations old is no longer a lost answer but a copy: refused, and the session ends.
    expect((await context.withCookie(session.cookie).api.auth.refresh_token.post()).status).toBe(401)
    const latest = next.response.headers.get('set-cookie')!.split(';')[0]!
    expect((await context.withCookie(latest).api.auth.refresh_token.post()).status).toBe(401)
  })

  test('refreshes racing with the same cookie (a page reloaded mid-refresh) all get the same new cookie', async () => {
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const client = context.withCookie(session.cookie)
    const answers = await Promise.all([1, 2, 3, 4].map(() => client.api.auth.refresh_token.post()))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    const cookies = new Set(answers.map((answer) => answer.response.headers.get('set-cookie')!.split(';')[0]!))
    expect(cookies.size).toBe(1)
    // Whichever answer the browser kept, the session lives on.
    expect((await context.withCookie([...cookies][0]!).api.auth.refresh_token.post()).status).toBe(200)
  })

  test('a new sign-in ends the other sessions of the same user and tells them', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const revoked: number[] = []
    const stop = context.deps.bus.on('auth.sessions_revoked', (event) => void revoked.push(event.userId))
    const first = await signIn(context, user)
    const second = await signIn(context, user)
    stop()
    expect(revoked).toEqual([user.id, user.id])
    expect((await context.as(first.token).api.auth.me.get()).status).toBe(401)
    expect((await context.as(second.token).api.auth.me.get()).status).toBe(200)
  })

  test('logout revokes the session and clears the cookie', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const session = await signIn(context, user)
    const out = await context.withCookie(session.cookie, session.token).api.auth.logout.delete()
    expect(out.status).toBe(200)
    expect(out.response.headers.get('set-cookie')).toContain('jrt=;')
    expect((await context.as(session.token).api.auth.me.get()).status).toBe(401)
    const refreshed = await context.withCookie(session.cookie).api.auth.refresh_token.post()
    expect(refreshed.status).toBe(401)
    const rows = await context.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true)
  })

  test('an inactive company cannot use its tokens', async () => {
    const tenant = await makeTenant(context)
    await context.db.update(companies).set({ status: false }).where(eq(companies.id, tenant.company.id))
    const { status, error } = await tenant.asAgent.api.auth.me.get()
    expect(status).toBe(403)
    expect(errorOf({ error })).toEqual({ error: 'ERR_COMPANY_INACTIVE' })
  })
})

describe('general', () => {
  test('GET /api/version', async () => {
    const { data } = await context.api.api.version.get()
    expect(data!.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  test('an unknown route is a JSON 404', async () => {
    const response = await context.app.handle(new Request('http://local/api/nothing-here'))
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'ERR_NOT_FOUND' })
  })

  test('malformed JSON is a 400 with a clear error, not a 500', async () => {
    const response = await context.app.handle(
      new Request('http://local/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' }),
    )
    expect(response.status).toBeOneOf([400, 422])
    expect(((await response.json()) as { error: string }).error).toBe('ERR_VALIDATION')
  })
})

describe('rate limit per IP', async () => {
  const strict = await createTestContext({ config: { rateLimit: { attempts: 100, ipAttempts: 3, windowSeconds: 60 } } })
  test('one address cannot try many e-mails', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await strict.api.api.auth.login.post({ email: `probe${attempt}@example.com`, password: 'guess' })).status)
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })
})
