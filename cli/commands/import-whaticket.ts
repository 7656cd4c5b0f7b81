import type { Command } from 'commander'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { CliError, printJson, printRecord, printTable } from '../output.ts'
import { progressBar } from '../progress.ts'
import { importWhaticket, type WhaticketReport } from '../whaticket/index.ts'

type Options = { from: string; company?: string; dryRun?: boolean; media?: string; sourceName?: string; batchSize?: string; json?: boolean }

function printReport(report: WhaticketReport): void {
  printRecord([
    [report.dryRun ? 'Dry run (nothing written)' : 'Imported from', report.source],
    ['Companies', report.companies.join(', ') || '(none)'],
    ['Media files', `${report.media.copied} ${report.dryRun ? 'found' : 'copied'}, ${report.media.missing} missing`],
    ['Issues', report.issuesTotal],
  ])
  console.log('')
  printTable(report.entities, [
    { header: 'TABLE', value: (row) => row.entity },
    { header: 'READ', value: (row) => row.read },
    { header: report.dryRun ? 'TO IMPORT' : 'IMPORTED', value: (row) => row.imported },
    { header: 'ALREADY IMPORTED', value: (row) => row.alreadyImported },
    { header: 'LEFT OUT', value: (row) => row.skipped },
  ])
  if (report.issues.length === 0) return
  console.log('')
  printTable(report.issues, [
    { header: 'TABLE', value: (row) => row.entity },
    { header: 'SOURCE ID', value: (row) => row.sourceId },
    { header: 'REASON', value: (row) => row.reason },
    { header: 'DETAIL', value: (row) => row.message },
  ])
  if (report.issuesTotal > report.issues.length) console.log(`... and ${report.issuesTotal - report.issues.length} more (see --json)`)
}

export function registerWhaticketImport(program: Command): void {
  const imports = program.command('import').description('bring another installation into Zapdesk').addHelpText('after', EMBEDDED_DATABASE_NOTE)
  imports
    .command('whaticket')
    .description('import a Whaticket SaaS / Atendechat database: companies, plans, users (their passwords keep working), queues, connections (to pair again by QR), contacts, tickets, messages and media, tags, quick replies, schedules, settings. Running it again imports only what is new.')
    .requiredOption('--from <url>', 'the Whaticket PostgreSQL database, e.g. postgres://user:password@host:5432/whaticket (read only)')
    .option('--company <id>', 'import only this Whaticket company (its id there); its super users come in as plain users')
    .option('--media <folder>', "Whaticket's backend/public folder, where its media files are")
    .option('--dry-run', 'import inside a transaction that is rolled back: the report of what would be imported, nothing written')
    .option('--source-name <name>', 'the name re-runs recognise this installation by (default: host:port/database of --from)')
    .option('--batch-size <rows>', 'rows read and written at a time (default 500)')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nExample: zapdesk import whaticket --from postgres://whaticket@old-server/whaticket --media /srv/whaticket/backend/public --dry-run')
    .action(async (options: Options) => {
      if (options.company !== undefined && !/^\d+$/.test(options.company.trim())) throw new CliError('--company must be the id of a Whaticket company')
      const batchSize = options.batchSize === undefined ? undefined : Number(options.batchSize)
      if (batchSize !== undefined && !(Number.isSafeInteger(batchSize) && batchSize >= 1 && batchSize <= 10_000)) throw new CliError('--batch-size must be a whole number from 1 to 10000')
      const report = await withDatabase((db, config) =>
        importWhaticket(db, config, {
          from: options.from,
          companyId: options.company === undefined ? undefined : Number(options.company),
          dryRun: Boolean(options.dryRun),
          mediaFolder: options.media,
          sourceName: options.sourceName,
          batchSize,
          progress: (label, total) => progressBar(label, total),
        }),
      )
      if (options.json) return printJson(report)
      printReport(report)
    })
}
