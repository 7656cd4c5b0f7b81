// The per-row report of a spreadsheet import (§7 POST /contacts/upload errorBag): each rejected row by
// the number the person sees in the spreadsheet, what it held and why it was refused, translated.
import type { UploadError } from '../../../src/modules/contacts/model.ts'

/**
 * The row's number in the spreadsheet: the server's line for a file (the header is line 1), else its
 * position counted from 1 below the header.
 */
export function rowNumberOf(entry: Pick<UploadError, 'index' | 'line'>): number {
  return entry.line ?? entry.index + 2
}

/** What the row held, for recognising it: its non-empty cells in column order. */
export function rowSummaryOf(entry: Pick<UploadError, 'row'>): string {
  return Object.values(entry.row)
    .filter((value) => value !== null && value !== '' && typeof value !== 'boolean')
    .map(String)
    .join(' · ')
}

/** §5 Import: contacts accept .xlsx. */
export function isSpreadsheetName(name: string): boolean {
  return /\.xlsx$/i.test(name.trim())
}
