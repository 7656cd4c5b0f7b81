// Reading contacts: the searchable page, the light list for selects and autocompletes, one contact.
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { type Caller, targetCompanyId } from '../../core/tenant.ts'
import type { ContactDetail, ContactOption, ContactPage, ContactSearchQuery } from './model.ts'
import { findContactDetail, findContactOptions, findContactPage, OPTION_SEARCH_LIMIT, type ContactFilters } from './queries.ts'

/** The new-ticket autocomplete searches from this many characters (§5 New ticket). */
export const MIN_AUTOCOMPLETE_LENGTH = 3

function isCalendarDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** The schema checked the shape; a day must also exist (no 2026-02-30) and a range must not run backwards. */
export function assertValidDays(filters: Pick<ContactFilters, 'date' | 'dateStart' | 'dateEnd'>): void {
  for (const field of ['date', 'dateStart', 'dateEnd'] as const) {
    const value = filters[field]
    if (value !== undefined && !isCalendarDay(value)) throw invalidField(field, `${field} must be a date as YYYY-MM-DD`)
  }
  if (filters.dateStart && filters.dateEnd && filters.dateStart > filters.dateEnd) throw invalidField('dateEnd', 'dateEnd must not be before dateStart')
}

export async function listContactPage(deps: Deps, companyId: number, query: ContactSearchQuery): Promise<ContactPage> {
  assertValidDays(query)
  return findContactPage(deps.db, { companyId, ...query })
}

export async function showContact(deps: Deps, scope: { companyId: number; contactId: number }): Promise<ContactDetail> {
  const contact = await findContactDetail(deps.db, scope)
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND')
  return contact
}

/**
 * The light list. Without searchParam: every contact of the company (the schedule dialog's select).
 * With one: the autocomplete, which starts at 3 characters (shorter answers an empty list) and
 * answers the first 50 matches by name.
 */
export async function listContactOptions(
  deps: Deps,
  actor: Pick<Caller, 'companyId' | 'super'>,
  query: { searchParam?: string; companyId?: number },
): Promise<ContactOption[]> {
  const companyId = await targetCompanyId(deps.db, actor, query.companyId)
  if (query.searchParam === undefined) return findContactOptions(deps.db, { companyId })
  const term = query.searchParam.trim()
  if (term.length < MIN_AUTOCOMPLETE_LENGTH) return []
  return findContactOptions(deps.db, { companyId, searchParam: term, limit: OPTION_SEARCH_LIMIT })
}

// The spreadsheet import, for the operator CLI's `contacts import` (cli/commands/imports.ts).
export { uploadContacts } from './upload.ts'
export { readSpreadsheet, type SheetRows } from './spreadsheet.ts'
export { readSheetRow, type RowVerdict } from './sheet-rows.ts'
export { findContactsByNumbers } from './queries.ts'
