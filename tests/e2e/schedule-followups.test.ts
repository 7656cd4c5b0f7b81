// Follow-ups on /schedules in the browser (issue 12 item 7), in English, Portuguese and Spanish: the
// dialog creates a weekly message, three times, cancelled if the customer replies first; the calendar's
// agenda shows its three occurrences; the screenshots (light, and dark in Spanish).
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { schedules } from '../../db/schema/index.ts'
import { makeCompany, makeContact, makePlan, makeUser } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

const countError = 'Choose from 2 to 365 times.'

const languages = [
  {
    code: 'en',
    heading: 'Schedules',
    add: 'Add schedule',
    repeat: 'Repeat',
    weekly: 'Weekly',
    times: 'Times',
    cancelOnReply: 'Cancel if the customer replies first',
    submit: 'Schedule',
    agenda: 'Agenda',
  },
  {
    code: 'pt',
    heading: 'Agendamentos',
    add: 'Adicionar agendamento',
    repeat: 'Repetir',
    weekly: 'Semanal',
    times: 'Vezes',
    cancelOnReply: 'Cancelar se o cliente responder antes',
    submit: 'Agendar',
    agenda: 'Agenda',
  },
  {
    code: 'es',
    heading: 'Programaciones',
    add: 'Agregar programación',
    repeat: 'Repetir',
    weekly: 'Semanal',
    times: 'Veces',
    cancelOnReply: 'Cancelar si el cliente responde antes',
    submit: 'Programar',
    agenda: 'Agenda',
  },
] as const

describeInBrowser('follow-ups on /schedules', () => {
  test('a weekly follow-up, cancelled on reply, made in each language, shows its occurrences', async () => {
    mkdirSync(screenshots, { recursive: true })
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Quente' })
    const user = await makeUser(harness.context.db, { companyId: company.id, name: 'Ana Lima' })
    const contacts = await Promise.all(
      ['Marta Follow', 'Bruno Follow', 'Carla Follow'].map((name, index) => makeContact(harness.context.db, { companyId: company.id, name, number: `551198888000${index}` })),
    )
    const { page, browserContext, problems } = await openPage(harness, { timezoneId: 'America/Sao_Paulo' })
    await signInThroughForm(page, user)

    for (const [index, language] of languages.entries()) {
      const contact = contacts[index]!
      await page.evaluate((code) => localStorage.setItem('language', code), language.code)
      if (language.code === 'es') await page.emulateMedia({ colorScheme: 'dark' })
      await page.goto('/schedules')
      await page.getByRole('heading', { name: `${language.heading} (${index})`, level: 1 }).waitFor()
      await page.getByRole('button', { name: language.add }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      await dialog.getByRole('combobox').first().fill(contact.name.slice(0, 5))
      await page.getByRole('option', { name: `${contact.name} (${contact.number})` }).click()
      await dialog.getByRole('textbox').first().waitFor()
      await dialog.locator('textarea[name="body"]').fill('Conseguiu ver a proposta, {{firstName}}?')
      await dialog.locator('.field', { hasText: language.repeat }).first().locator('.select-button').click()
      await page.getByRole('option', { name: language.weekly, exact: true }).click()
      const times = dialog.getByRole('textbox', { name: language.times })
      if (language.code === 'en') {
        // The dialog's own check of the number of times; the message goes once the number is changed.
        await times.fill('1')
        await dialog.getByRole('button', { name: language.submit, exact: true }).click()
        await dialog.getByText(countError).waitFor()
      }
      await times.fill('3')
      if (language.code === 'en') expect(await dialog.getByText(countError).count()).toBe(0)
      // The switch's input is visually hidden: a person presses its label.
      await dialog.getByText(language.cancelOnReply, { exact: true }).click()
      expect(await dialog.getByRole('switch', { name: language.cancelOnReply }).isChecked()).toBe(true)
      if (language.code === 'en') await page.screenshot({ path: join(screenshots, 'schedule-followup-dialog.png') })
      await dialog.getByRole('button', { name: language.submit, exact: true }).click()
      await dialog.waitFor({ state: 'detached' })

      const [stored] = await harness.context.db
        .select()
        .from(schedules)
        .where(and(eq(schedules.companyId, company.id), eq(schedules.contactId, contact.id)))
      expect(stored).toMatchObject({ recurrence: 'weekly', recurrenceCount: 3, recurrenceUntil: null, cancelOnReply: true, status: 'PENDENTE' })

      // The agenda (the next 30 days) lists each of the three occurrences, a week apart.
      await page.getByRole('radio', { name: language.agenda }).click()
      const rows = page.locator('.rbc-agenda-table tbody tr', { hasText: contact.name })
      await waitFor(async () => (await rows.count()) === 3)
      expect(await rows.count()).toBe(3)
      // Each occurrence is marked as a repetition.
      expect(await rows.locator('.schedule-event-repeat').count()).toBe(3)
      if (language.code !== 'en') {
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
        await page.screenshot({ path: join(screenshots, language.code === 'es' ? 'schedule-followups-dark.png' : 'schedule-followups.png') })
      }
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
