// What every step of the Whaticket import shares, and the loop that runs one step: read a page of the
// source, leave out the rows an earlier run imported, write the rest (and their mappings) in one
// transaction, advance the progress bar.
import { sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { Config } from '../../src/config.ts'
import type { Progress } from '../progress.ts'
import type { Mappings } from './mappings.ts'
import type { MediaCopier } from './media.ts'
import type { ReportBuilder } from './report.ts'
import { keyOf, type SourceDatabase, type SourceQuery, type SourceRow } from './source.ts'

export type ImportContext = {
  db: Executor
  source: SourceDatabase
  /** --company: the one source company imported. */
  companyId?: number
  /** Every company is imported (no --company): the installation moves whole, super users included. */
  wholeInstallation: boolean
  mappings: Mappings
  media: MediaCopier
  report: ReportBuilder
  progress: (label: string, total: number) => Progress
  batchSize: number
  /** SECRETS_KEY: connection tokens are stored sealed, with their lookup key. */
  config: Pick<Config, 'secretsKey'>
}

export type Step = {
  entity: string
  query: SourceQuery
  /** The row's key in the mapping table; the source id by default. */
  keyOf?: (row: SourceRow) => string
  /** Writes the rows not imported yet (in the step's transaction) and records their mappings. */
  write(tx: Executor, rows: SourceRow[], context: ImportContext): Promise<void>
}

export async function runStep(context: ImportContext, step: Step): Promise<void> {
  const counts = context.report.of(step.entity)
  const total = await context.source.count(step.query, context.companyId)
  const progress = context.progress(step.entity, total)
  const key = step.keyOf ?? keyOf
  for await (const rows of context.source.pages(step.query, context.companyId, context.batchSize)) {
    counts.read += rows.length
    await context.db.transaction(async (tx) => {
      // Two runs of one source at once would both take a row for new: a page is checked against the
      // mappings and written under a lock of the source, so the second run sees what the first wrote.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${context.source.name}))`)
      const known = await context.mappings.known(tx, step.entity, rows.map(key))
      counts.alreadyImported += known.size
      const fresh = rows.filter((row) => !known.has(key(row)))
      if (fresh.length > 0) await step.write(tx, fresh, context)
    })
    progress.update(counts.read)
  }
  progress.done()
}

/** Our company of each row (by its source companyId); rows of a company not imported are skipped and reported. */
export async function companiesOf(tx: Executor, context: ImportContext, entity: string, rows: SourceRow[], column = 'companyId'): Promise<Map<SourceRow, number>> {
  const companies = await context.mappings.resolve(tx, 'Companies', rows.map((row) => (row[column] === null ? undefined : String(row[column]))))
  const found = new Map<SourceRow, number>()
  for (const row of rows) {
    const companyId = row[column] === null || row[column] === undefined ? undefined : companies.get(String(row[column]))
    if (companyId === undefined) context.report.issue(entity, keyOf(row), 'COMPANY_NOT_IMPORTED', `its company (${String(row[column] ?? 'none')}) was not imported`, { skipped: true })
    else found.set(row, companyId)
  }
  return found
}
