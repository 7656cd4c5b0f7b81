// exceljs is a large module (about a quarter of a second to load, and its memory): only the spreadsheet
// imports and exports need it, so it is loaded on first use rather than by every process at start.
import type ExcelJS from 'exceljs'

let loading: Promise<typeof ExcelJS> | undefined

export function loadExcel(): Promise<typeof ExcelJS> {
  return (loading ??= import('exceljs').then((module) => module.default))
}
