// The integration dialog's test session (§7 POST /queueIntegration/testSession) in the browser: an
// admin tries a webhook's unsaved address and reads its answer, then an address that fails and reads
// why; the button and the answer in pt and es. One sign-in for the file.
import { afterAll, expect, test } from 'bun:test'
import { makeCompany, makePlan, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInTo, startWebHarness, unexpectedErrors } from './support/harness.ts'

const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (new URL(request.url).pathname !== '/hook') return new Response('down', { status: 500 })
    const event = (await request.json()) as { event: string; message: { body: string } }
    return Response.json({ messages: [`${event.event}: ${event.message.body}`] })
  },
})
afterAll(() => receiver.stop(true))
const harness = await startWebHarness({ config: { outbound: { allowedHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } } })

describeInBrowser('integration test session', () => {
  test('an unsaved webhook answers the test phrase; a failing address says why; pt and es', async () => {
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/queue-integration')

    const steps = [
      { language: 'en', add: 'Add integration', phrase: 'Test phrase', button: 'Test session', answered: 'Connected in', cancel: 'Cancel' },
      { language: 'pt', add: 'Adicionar integração', phrase: 'Frase de teste', button: 'Testar sessão', answered: 'Conectado em', cancel: 'Cancelar' },
      { language: 'es', add: 'Agregar integración', phrase: 'Frase de prueba', button: 'Probar sesión', answered: 'Conectado en', cancel: 'Cancelar' },
    ] as const
    for (const step of steps) {
      if (step.language !== 'en') {
        await page.evaluate((code) => localStorage.setItem('language', code), step.language)
        await page.reload()
      }
      await page.getByRole('button', { name: step.add }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${receiver.port}/hook`)
      await dialog.getByRole('textbox', { name: step.phrase }).fill(`Ping ${step.language}`)
      await dialog.getByRole('button', { name: step.button }).click()
      await dialog.getByText(step.answered).waitFor()
      await dialog.getByText(`session.test: Ping ${step.language}`).waitFor()
      if (step.language === 'en') {
        await page.getByText('Test session answered.').waitFor()
        await dialog.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${receiver.port}/broken`)
        await dialog.getByRole('button', { name: step.button }).click()
        await dialog.getByRole('alert').getByText('The integration could not be reached or answered with an error. Check its address and try again.').waitFor()
      }
      await dialog.getByRole('button', { name: step.cancel, exact: true }).click()
      await dialog.waitFor({ state: 'detached' })
    }
    expect(unexpectedErrors(problems, [502])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})
