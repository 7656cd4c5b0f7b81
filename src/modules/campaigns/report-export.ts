// The campaign report as an .xlsx download (GET /campaigns/{id}/report/export): every shipping row in
// number order, then the totals. Streamed like the contacts export: the rows are read 2,000 at a time
// after the last number and written as they come, so a campaign of 100k recipients costs one batch of memory
// (building the workbook in memory held every cell as an object, hundreds of MB for such a campaign).
import { PassThrough, Readable } from 'node:stream'
import { loadExcel } from '../../core/excel.ts'
import { AppError } from '../../core/errors.ts'
import { neutraliseFormula } from '../../core/spreadsheet-cells.ts'
import type { Deps } from '../deps.ts'
import { loadCampaign } from './records.ts'
import { reportTotals, shippingRows } from './report.ts'

const BATCH = 2_000

const columns = [
  { header: 'number', key: 'number', width: 18 },
  { header: 'name', key: 'name', width: 24 },
  { header: 'variant', key: 'variant', width: 8 },
  { header: 'status', key: 'status', width: 12 },
  { header: 'sentAt', key: 'sentAt', width: 22 },
  { header: 'deliveredAt', key: 'deliveredAt', width: 22 },
  { header: 'readAt', key: 'readAt', width: 22 },
  { header: 'repliedAt', key: 'repliedAt', width: 22 },
  { header: 'reply', key: 'reply', width: 40 },
  { header: 'optedOut', key: 'optedOut', width: 10 },
  { header: 'error', key: 'error', width: 30 },
  { header: 'message', key: 'message', width: 60 },
]

/** The file's name and its bytes as a stream; ERR_NO_CAMPAIGN_FOUND (and a failing first read) before anything is sent. */
export async function exportCampaignReport(deps: Deps, caller: { companyId: number }, campaignId: number): Promise<{ name: string; body: ReadableStream<Uint8Array> }> {
  const scope = { companyId: caller.companyId, campaignId }
  if (!(await loadCampaign(deps, scope))) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  const first = await shippingRows(deps, scope, {}, BATCH, { afterNumber: '' })
  const ExcelJS = await loadExcel()
  const output = new PassThrough()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false })
  const sheet = workbook.addWorksheet('Shipping')
  sheet.columns = columns
  // A cell a spreadsheet app would run as a formula is written as text.
  const safe = (value: string | null) => neutraliseFormula(value ?? '')
  void (async () => {
    for (let rows = first; ; ) {
      for (const shipping of rows) {
        sheet.addRow({ ...shipping, name: safe(shipping.name), reply: safe(shipping.reply), message: safe(shipping.message), error: safe(shipping.error), optedOut: shipping.optedOut ? 'yes' : '' }).commit()
      }
      if (rows.length < BATCH) break
      // Lets the zip writer take the committed rows before the next batch: on the embedded database a
      // read never waits for a socket, so without this nothing else ran and every row piled up here.
      await new Promise<void>((resolve) => setImmediate(resolve))
      rows = await shippingRows(deps, scope, {}, BATCH, { afterNumber: rows[rows.length - 1]!.number })
    }
    sheet.commit()
    const totals = workbook.addWorksheet('Totals')
    for (const [key, value] of Object.entries(await reportTotals(deps, scope))) totals.addRow([key, value]).commit()
    totals.commit()
    await workbook.commit()
  })().catch((error: unknown) => {
    // The headers are gone already: the download ends short, and the log says why.
    deps.logger.error('campaign report export failed', { campaignId, error })
    output.destroy(error instanceof Error ? error : new Error(String(error)))
  })
  return { name: `campaign-${campaignId}.xlsx`, body: Readable.toWeb(output) as unknown as ReadableStream<Uint8Array> }
}
