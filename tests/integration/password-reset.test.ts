import { afterAll, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { mailOutbox, passwordResets, users } from '../../db/schema/index.ts'
import { SECRET_MAIL_PLACEHOLDER } from '../../src/core/mailer.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { makeCompany, makeUser, signIn } from '../helpers/factories.ts'

const context = await createTestContext()
const NEW_PASSWORD = 'Fresh-Start9'

async function makeAccount(target: TestContext = context) {
  const company = await makeCompany(target.db)
  return makeUser(target.db, { companyId: company.id, profile: 'admin' })
}

function requestCode(email: string, target: TestContext = context) {
  return target.api.api.forgetpassword({ email }).post()
}

function reset(email: string, token: string, newPassword: string, target: TestContext = context) {
  // Eden puts path values in as they are: the caller encodes, as the spec's client must.
  return target.api.api.resetpasswords({ email })({ token: encodeURIComponent(token) })({ newPassword: encodeURIComponent(newPassword) }).post()
}

/** The code in the newest mail to this address, read from the outbox like an operator would. */
async function mailedCode(email: string, target: TestContext = context): Promise<string> {
  const [mail] = await target.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1)
  const code = mail?.text.match(/code is (\d{6})/)?.[1]
  if (!code) throw new Error(`no reset code mailed to ${email}`)
  return code
}

const resetClock = () => context.setNow(() => new Date())

describe('POST /api/forgetpassword/{email}', () => {
  test('mails a six-digit code and stores only its hash, valid for 30 minutes', async () => {
    const user = await makeAccount()
    const { status, data } = await requestCode(user.email.toUpperCase())
    expect(status).toBe(200)
    expect(data).toEqual({ status: 'ok' })
    const [mail] = await context.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))
    expect(mail!.subject).toContain('password reset')
    expect(mail!.sentAt).toBeNull()
    const code = await mailedCode(user.email)
    const [row] = await context.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))
    expect(row!.codeHash).not.toContain(code)
    expect(row!.usedAt).toBeNull()
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000
    expect(minutes).toBeGreaterThan(29)
    expect(minutes).toBeLessThan(31)
  })

  test('an unknown e-mail is 404 ERR_USER_DONT_EXISTS and mails nothing', async () => {
    const result = await requestCode('nobody-here@example.com')
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_USER_DONT_EXISTS' })
    expect(await context.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'nobody-here@example.com'))).toEqual([])
  })

  test('an invalid e-mail is 422 on the email field', async () => {
    const result = await requestCode('not-an-email')
    expect(result.status).toBe(422)
    expect(fieldsOf(result)).toEqual(['email'])
  })

  test('is rate-limited per e-mail', async () => {
    const user = await makeAccount()
    const statuses: number[] = []
    for (let attempt = 0; attempt <= context.deps.config.rateLimit.attempts; attempt++) statuses.push((await requestCode(user.email)).status)
    expect(statuses.at(-2)).toBe(200)
    expect(statuses.at(-1)).toBe(429)
  })
})

describe('POST /api/resetpasswords/{email}/{token}/{newPassword}', () => {
  test('sets the new password, spends the code and ends every session', async () => {
    const user = await makeAccount()
    const session = await signIn(context, user)
    const revoked: number[] = []
    const stop = context.deps.bus.on('auth.sessions_revoked', (event) => void revoked.push(event.userId))
    await requestCode(user.email)
    const result = await reset(user.email, await mailedCode(user.email), NEW_PASSWORD)
    stop()
    expect(result.status).toBe(200)
    expect(result.data).toEqual({ status: 'ok' })
    expect(revoked).toEqual([user.id])
    // The old access token and the old refresh cookie are both dead.
    expect((await context.as(session.token).api.auth.me.get()).status).toBe(401)
    expect((await context.withCookie(session.cookie).api.auth.refresh_token.post()).status).toBe(401)
    const [stored] = await context.db.select().from(users).where(eq(users.id, user.id))
    expect(stored!.tokenVersion).toBe(user.tokenVersion + 1)
    const [code] = await context.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))
    expect(code!.usedAt).not.toBeNull()
    expect((await context.api.api.auth.login.post({ email: user.email, password: user.password })).status).toBe(401)
    const login = await context.api.api.auth.login.post({ email: user.email, password: NEW_PASSWORD })
    expect(login.status).toBe(200)
    expect((await context.as(login.data!.token).api.auth.me.get()).status).toBe(200)
  })

  test('a password with characters that need encoding in the path works', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const password = 'Slash/Hash#Q?9 x%'
    expect((await reset(user.email, await mailedCode(user.email), password)).status).toBe(200)
    expect((await context.api.api.auth.login.post({ email: user.email, password })).status).toBe(200)
  })

  test('a wrong code is ERR_INVALID_RESET_CODE and the password stays', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const wrong = code === '000000' ? '111111' : '000000'
    const result = await reset(user.email, wrong, NEW_PASSWORD)
    expect(result.status).toBe(400)
    expect(errorOf(result)).toEqual({ error: 'ERR_INVALID_RESET_CODE' })
    expect((await context.api.api.auth.login.post({ email: user.email, password: user.password })).status).toBe(200)
  })

  test('an unknown e-mail in step 2 gets the same error', async () => {
    const result = await reset('nobody-at-all@example.com', '123456', NEW_PASSWORD)
    expect(result.status).toBe(400)
    expect(errorOf(result)).toEqual({ error: 'ERR_INVALID_RESET_CODE' })
  })

  test('an expired code is refused (30 minutes)', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const later = Date.now() + 31 * 60_000
    context.setNow(() => new Date(later))
    try {
      const result = await reset(user.email, code, NEW_PASSWORD)
      expect(result.status).toBe(400)
      expect(errorOf(result)).toEqual({ error: 'ERR_INVALID_RESET_CODE' })
    } finally {
      resetClock()
    }
  })

  test('a code still works at 29 minutes', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const later = Date.now() + 29 * 60_000
    context.setNow(() => new Date(later))
    try {
      expect((await reset(user.email, code, NEW_PASSWORD)).status).toBe(200)
    } finally {
      resetClock()
    }
  })

  test('a used code cannot be used again', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    expect((await reset(user.email, code, NEW_PASSWORD)).status).toBe(200)
    const again = await reset(user.email, code, 'Another-One2')
    expect(again.status).toBe(400)
    expect(errorOf(again)).toEqual({ error: 'ERR_INVALID_RESET_CODE' })
    expect((await context.api.api.auth.login.post({ email: user.email, password: NEW_PASSWORD })).status).toBe(200)
  })

  test('a new request invalidates the earlier code', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const first = await mailedCode(user.email)
    await requestCode(user.email)
    const second = await mailedCode(user.email)
    if (first !== second) expect((await reset(user.email, first, NEW_PASSWORD)).status).toBe(400)
    expect((await reset(user.email, second, NEW_PASSWORD)).status).toBe(200)
  })

  test('after 5 wrong tries the code is dead, even the right one', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const wrong = code === '999999' ? '888888' : '999999'
    for (let attempt = 0; attempt < 5; attempt++) expect((await reset(user.email, wrong, NEW_PASSWORD)).status).toBe(400)
    const right = await reset(user.email, code, NEW_PASSWORD)
    expect(right.status).toBe(400)
    expect(errorOf(right)).toEqual({ error: 'ERR_INVALID_RESET_CODE' })
    expect((await context.api.api.auth.login.post({ email: user.email, password: user.password })).status).toBe(200)
  })

  test('four wrong tries leave the code usable', async () => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const wrong = code === '999999' ? '888888' : '999999'
    for (let attempt = 0; attempt < 4; attempt++) await reset(user.email, wrong, NEW_PASSWORD)
    expect((await reset(user.email, code, NEW_PASSWORD)).status).toBe(200)
  })

  test.each([
    ['shorter than 8', 'Short1a'],
    ['without an uppercase letter', 'lowercase1only'],
    ['without a lowercase letter', 'UPPERCASE1ONLY'],
    ['without a digit', 'NoDigitsAtAll'],
  ])('a password %s is 422 on newPassword and leaves the code usable', async (_rule, weak) => {
    const user = await makeAccount()
    await requestCode(user.email)
    const code = await mailedCode(user.email)
    const result = await reset(user.email, code, weak)
    expect(result.status).toBe(422)
    expect(errorOf(result)!.error).toBe('ERR_VALIDATION')
    expect(fieldsOf(result)).toEqual(['newPassword'])
    expect((await reset(user.email, code, NEW_PASSWORD)).status).toBe(200)
  })
})

describe('rate limit per IP', async () => {
  const strict = await createTestContext({ config: { rateLimit: { attempts: 100, ipAttempts: 3, windowSeconds: 60 } } })
  test('one address cannot guess codes of many accounts', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await reset(`probe${attempt}@example.com`, '123456', NEW_PASSWORD, strict)).status)
    expect(statuses).toEqual([400, 400, 400, 429, 429])
  })
  test('one address cannot probe many e-mails', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await requestCode(`probe${attempt}@example.com`, strict)).status)
    expect(statuses).toEqual([404, 404, 404, 429, 429])
  })
})

describe('delivery over SMTP', async () => {
  const received: { to: string[]; raw: string }[] = []
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: the built-in certificate is self-signed and nodemailer would refuse it.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString('utf8') })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const smtpContext = await createTestContext({
    config: { smtp: { host: '127.0.0.1', port, secure: false, user: undefined, password: undefined, from: 'Zapdesk <no-reply@zapdesk.test>' } },
  })

  // A review found the code in clear in mail_outbox.text, which undid storing only its HMAC.
  test('the code reaches a real SMTP server; the outbox row is marked sent and does not hold the code', async () => {
    const user = await makeAccount(smtpContext)
    expect((await requestCode(user.email, smtpContext)).status).toBe(200)
    expect(received).toHaveLength(1)
    expect(received[0]!.to).toEqual([user.email])
    const code = /code is (\d{6})/.exec(received[0]!.raw)?.[1]
    expect(code).toMatch(/^\d{6}$/)
    expect(received[0]!.raw).toContain('no-reply@zapdesk.test')
    const [mail] = await smtpContext.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))
    expect(mail!.sentAt).toBeInstanceOf(Date)
    expect(mail!.error).toBeNull()
    expect(mail!.text).toBe(SECRET_MAIL_PLACEHOLDER)
    expect(JSON.stringify(await smtpContext.db.select().from(mailOutbox))).not.toContain(code!)
    expect((await reset(user.email, code!, NEW_PASSWORD, smtpContext)).status).toBe(200)
  })
})
