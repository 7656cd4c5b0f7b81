// The checkout dialog as the billing browser tests drive it.
import type { Page } from 'playwright-core'

/** A calendar date as the pt-BR pages and toasts write it: 2026-11-26 -> 26/11/2026. */
export const ddmmyyyy = (isoDate: string) => isoDate.split('-').reverse().join('/')

/** From the invoices table to the review step: the plan step, then the data step filled (by field name: any language). */
export async function openCheckoutAtReview(page: Page, invoiceId: number, labels: { pay: string; dialog: string; next: string }) {
  await page.getByRole('button', { name: `${labels.pay} ${invoiceId}` }).click()
  const dialog = page.getByRole('dialog', { name: labels.dialog })
  await dialog.getByRole('button', { name: labels.next }).click()
  await dialog.locator('input[name="address2"]').fill('Rua das Flores, 120')
  await dialog.locator('input[name="city"]').fill('Recife')
  await dialog.locator('input[name="zipcode"]').fill('50000-000')
  await dialog.getByRole('button', { name: labels.next }).click()
  await dialog.locator('[aria-current="step"]').filter({ hasText: /3/ }).waitFor()
  return dialog
}
