// The sample spreadsheet of the contact lists page (§2 "download sample spreadsheet"): the columns an
// upload reads (name, number, email) with two example rows, as .xlsx.
import { loadExcel } from '../../core/excel.ts'

export const SAMPLE_FILE_NAME = 'contact-list-sample.xlsx'
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

export async function sampleSpreadsheet(): Promise<Blob> {
  const ExcelJS = await loadExcel()
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Contacts')
  sheet.columns = [
    { header: 'name', key: 'name', width: 30 },
    { header: 'number', key: 'number', width: 20 },
    { header: 'email', key: 'email', width: 30 },
  ]
  // Numbers as text: a spreadsheet would otherwise show a long number in scientific notation.
  sheet.getColumn('number').numFmt = '@'
  sheet.addRow({ name: 'Maria Silva', number: '5511987654321', email: 'maria@example.com' })
  sheet.addRow({ name: 'João Souza', number: '5521912345678', email: '' })
  return new Blob([await workbook.xlsx.writeBuffer()], { type: XLSX_TYPE })
}
