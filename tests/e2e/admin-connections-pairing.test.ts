// Pairing by phone number in the browser (§4 PAIRING): from the QR modal an admin switches to the phone
// number (masked as typed), gets the 8-character code shown as XXXX-XXXX, sees it replaced live when
// WhatsApp gives a new one, reopens it from the table, and the modal closes by itself on CONNECTED.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { whatsapps } from '../../db/schema/index.ts'
import type { ProviderHandlers } from '../../src/channels/provider.ts'
import { makeCompany, makeConnection, makePlan, makeUser } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness({ config: { whatsappSimulator: true } })

const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

/**
 * The simulator's sessions, as the connection manager hears them. The simulated phone would type the
 * code by itself after a delay; here it never does (a long delay), and the test says when it happens,
 * so that nothing depends on how fast the browser reads the screen.
 */
const sessionHandlers = new Map<number, ProviderHandlers>()
if (harness) {
  const simulator = harness.context.simulator
  harness.context.app.decorator.connections.useFactory('simulator', (options) => {
    sessionHandlers.set(options.whatsappId, options.handlers)
    return simulator.factory(options)
  })
}

async function rowOf(whatsappId: number) {
  const [row] = await harness.context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId))
  return row!
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

describeInBrowser('connections page: pairing by phone number', () => {
  test('QR modal -> phone number -> the code, replaced live, reopened from the table; CONNECTED closes it', async () => {
    harness.context.simulator.configure({ qrDelayMs: 100, connectDelayMs: 10 * 60_000 })
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { name: 'Clínica Sorriso', planId: plan.id })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    const connection = await makeConnection(harness.context.db, { companyId: company.id, name: 'Recepção', isDefault: true })
    await harness.context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, connection.id))
    const ref = { companyId: company.id, whatsappId: connection.id }
    await harness.context.app.decorator.connections.start(ref)
    await waitFor(async () => (await rowOf(connection.id)).status === 'qrcode')

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    // The new codes and CONNECTED reach the page over its socket only.
    await withLiveSocket(page, () => page.goto('/connections'))
    await row(page, 'Recepção').getByRole('button', { name: 'Show the QR code of Recepção' }).click()
    const qr = page.getByRole('dialog', { name: 'Read the QR code' })
    await qr.getByRole('img', { name: 'QR code of Recepção' }).waitFor()

    await qr.getByRole('button', { name: 'Pair with a phone number instead' }).click()
    const pairing = page.getByRole('dialog', { name: 'Link with a phone number' })
    const phone = pairing.getByRole('textbox', { name: 'Phone number' })
    // Checked before sending: too short.
    await phone.pressSequentially('55119876')
    await pairing.getByRole('button', { name: 'Get the pairing code' }).click()
    await pairing.getByText('Enter the number with its country code: 10 to 15 digits.').waitFor()
    expect(await phone.getAttribute('aria-invalid')).toBe('true')
    // The mask as typed, going on from the end of what is there: +55 (11) 98765-4321.
    await phone.focus()
    await phone.press('End')
    await phone.pressSequentially('54321')
    expect(await phone.inputValue()).toBe('+55 (11) 98765-4321')
    await pairing.getByRole('button', { name: 'Get the pairing code' }).click()

    const code = pairing.getByTestId('pairing-code')
    await code.waitFor()
    const stored = (await rowOf(connection.id)).pairingCode
    expect(stored).toMatch(/^[0-9A-F]{8}$/)
    expect(await code.innerText()).toBe(`${stored.slice(0, 4)}-${stored.slice(4)}`)
    await pairing.getByText('Tap Link a device, then Link with phone number instead.').waitFor()
    await row(page, 'Recepção').getByText('Pairing', { exact: true }).waitFor()
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: join(screenshots, 'connections-pairing.png') })

    // WhatsApp gives a new code (the previous one expired): the modal shows it without a reload.
    await sessionHandlers.get(connection.id)!.onState({ status: 'PAIRING', pairingCode: 'ZAPD3SK1', retries: 2 })
    await pairing.getByText('ZAPD-3SK1', { exact: true }).waitFor()

    // Closed, then reopened from the table: a connection in PAIRING offers its code.
    await pairing.getByRole('button', { name: 'Close' }).click()
    await pairing.waitFor({ state: 'detached' })
    await row(page, 'Recepção').getByRole('button', { name: 'Show the pairing code of Recepção' }).click()
    await page.getByRole('dialog', { name: 'Link with a phone number' }).getByText('ZAPD-3SK1', { exact: true }).waitFor()

    // The phone takes the code: CONNECTED closes the modal, as after a QR code.
    await sessionHandlers.get(connection.id)!.onState({ status: 'CONNECTED', number: '5511987654321', retries: 0 })
    await pairing.waitFor({ state: 'detached', timeout: 10_000 })
    await page.getByText('Recepção is connected.').waitFor()
    await row(page, 'Recepção').getByText('Connected', { exact: true }).waitFor()
    expect(await rowOf(connection.id)).toMatchObject({ status: 'CONNECTED', pairingCode: '', qrcode: '' })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
