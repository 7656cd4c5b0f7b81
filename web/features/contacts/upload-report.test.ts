import { describe, expect, test } from 'bun:test'
import { isSpreadsheetName, rowNumberOf, rowSummaryOf } from './upload-report.ts'
import { fileNameOf } from './export-file.ts'

describe('upload report', () => {
  test('a row is named by its spreadsheet line, or by its position below the header', () => {
    expect(rowNumberOf({ index: 0, line: 5 })).toBe(5)
    expect(rowNumberOf({ index: 0 })).toBe(2)
    expect(rowNumberOf({ index: 3 })).toBe(5)
  })

  test('the row is summarised by its non-empty cells', () => {
    expect(rowSummaryOf({ row: { name: 'Ana', number: 5511987654321, email: '', extra: null, flag: true } })).toBe('Ana · 5511987654321')
    expect(rowSummaryOf({ row: {} })).toBe('')
  })

  test('only .xlsx files are offered to the import (§5)', () => {
    expect(isSpreadsheetName('contacts.xlsx')).toBe(true)
    expect(isSpreadsheetName('CONTACTS.XLSX ')).toBe(true)
    expect(isSpreadsheetName('contacts.xls')).toBe(false)
    expect(isSpreadsheetName('contacts.csv')).toBe(false)
  })

  test('the exported file keeps the name the server gives it', () => {
    expect(fileNameOf('attachment; filename="contacts-2026-11-22.xlsx"', 'xlsx')).toBe('contacts-2026-11-22.xlsx')
    expect(fileNameOf(null, 'csv')).toBe('contacts.csv')
  })
})
