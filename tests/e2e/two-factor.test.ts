// Two-factor sign-in in the browser: enrol in the profile modal (en), sign in with a TOTP code (pt),
// an admin resets a user's 2FA from the users page
// and finds it in the audit log (es).
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import { makeCompany, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

const harness = await startWebHarness()

/** A code of the next 30 s step: the one just used to confirm cannot be replayed in its own step. */
function nextCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 })
}

describeInBrowser('two-factor authentication', () => {
  test('enrol in the profile (en), sign in with a code (pt), reset a user from /users and see it in the audit log (es)', async () => {
    const company = await makeCompany(harness.context.db)
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Admin' })
    const agent = await makeUser(harness.context.db, { companyId: company.id, name: 'Bruno Agent' })
    const { page, browserContext, problems } = await openPage(harness)

    // en: enrol from the profile modal.
    await signInThroughForm(page, admin)
    await page.getByRole('button', { name: `Account: ${admin.name}` }).click()
    await page.getByRole('menuitem', { name: 'Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Profile' })
    await dialog.getByRole('button', { name: 'Set up two-factor authentication' }).click()
    await dialog.getByRole('img', { name: 'QR code for the authenticator app' }).waitFor()
    await page.screenshot({ path: join(screenshots, 'two-factor-enrolment.png') })
    const secret = (await dialog.getByTestId('two-factor-secret').innerText()).trim()
    await dialog.getByLabel('Authentication code', { exact: true }).fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate())
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await dialog.getByRole('list', { name: 'Recovery codes' }).waitFor()
    expect(await dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10)
    await dialog.getByRole('button', { name: 'I saved them' }).click()
    await dialog.getByRole('button', { name: 'Turn off two-factor authentication' }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: `Account: ${admin.name}` }).click()
    await page.getByRole('menuitem', { name: 'Log out' }).click()
    await page.waitForURL('**/login')

    // pt: the password, then the code.
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.reload()
    await page.getByLabel('E-mail', { exact: true }).fill(admin.email)
    await page.getByLabel('Senha', { exact: true }).fill(admin.password)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await page.getByLabel('Código de autenticação', { exact: true }).fill('000000')
    await page.getByRole('button', { name: 'Verificar' }).click()
    await page.getByText('O código não está correto. Confira o aplicativo e tente novamente.').waitFor()
    await page.getByLabel('Código de autenticação', { exact: true }).fill(nextCode(secret))
    await page.getByRole('button', { name: 'Verificar' }).click()
    await page.waitForURL('**/tickets')
    await page.getByText(`Olá ${admin.name}`).waitFor()

    // es: the agent has 2FA; the admin resets it from the users page.
    const agentClient = harness.context.as((await signIn(harness.context, agent)).token)
    const setup = await agentClient.api.auth['two-factor'].setup.post()
    await agentClient.api.auth['two-factor'].confirm.post({ code: new TOTP({ secret: Secret.fromBase32(setup.data!.secret) }).generate() })
    expect((await harness.context.api.api.auth.login.post(agent)).status).toBe(401)
    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.goto('/users')
    await page.getByRole('button', { name: `Restablecer autenticación en dos pasos de ${agent.name}` }).click()
    await page.getByRole('dialog', { name: 'Restablecer autenticación en dos pasos' }).getByRole('button', { name: 'Restablecer' }).click()
    await page.getByText(`Se restableció la autenticación en dos pasos de ${agent.name}.`).waitFor()
    expect((await harness.context.api.api.auth.login.post(agent)).status).toBe(200)

    // es: the audit log lists the reset, with who did it and from where.
    await page.getByRole('link', { name: 'Registro de auditoría' }).click()
    await page.waitForURL('**/audit-log')
    const table = page.getByRole('table', { name: 'Registro de auditoría' })
    const row = table.getByRole('row').filter({ hasText: 'Dos pasos restablecido' })
    await row.waitFor()
    // Who did it shows once the users' names are loaded (the page reads them beside the entries).
    await row.filter({ hasText: admin.name }).waitFor()
    expect(await row.innerText()).toContain(admin.name)
    expect(await row.innerText()).toContain(`#${agent.id}`)
    // The enrolment from the profile is there too, and the action filter keeps only it.
    await page.getByRole('button', { name: /Acción/ }).click()
    await page.getByRole('option', { name: 'Dos pasos activado' }).click()
    await table.getByRole('row').filter({ hasText: 'Dos pasos restablecido' }).waitFor({ state: 'detached' })
    await table.getByRole('row').filter({ hasText: 'Dos pasos activado' }).first().waitFor()
    await page.screenshot({ path: join(screenshots, 'audit-log-es.png') })

    expect(unexpectedErrors(problems, [400, 401])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
