import type { Command } from 'commander'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { contactLists } from '../../db/schema/index.ts'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { importContactListItems, importContacts, type ImportReport } from '../imports.ts'
import { findCompanyByReference } from '../lookups.ts'
import { CliError, printJson, printRecord, printTable } from '../output.ts'
import { progressBar } from '../progress.ts'

type ImportOptions = { company: string; file: string; dryRun?: boolean; json?: boolean }

async function findListByReference(db: Database, companyId: number, reference: string) {
  const value = reference.trim()
  const [list] = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.companyId, companyId), /^\d+$/.test(value) ? eq(contactLists.id, Number(value)) : sql`lower(${contactLists.name}) = ${value.toLowerCase()}`))
    .limit(1)
  if (!list) throw new CliError(`the company has no contact list with id or name "${value}"`)
  return list
}

function printReport(report: ImportReport, what: string): void {
  printRecord([
    [report.dryRun ? 'Dry run (nothing written)' : 'Imported', report.file],
    ['Rows read', report.rowsRead],
    [report.dryRun ? `${what} to add` : `${what} added`, report.added],
    ['Skipped', report.skipped.length],
  ])
  if (report.skipped.length === 0) return
  console.log('')
  printTable(report.skipped, [
    { header: 'LINE', value: (row) => row.line },
    { header: 'REASON', value: (row) => row.reason },
    { header: 'DETAIL', value: (row) => row.message },
  ])
}

const withImportOptions = (command: Command) =>
  command
    .requiredOption('--company <company>', 'company id or name')
    .requiredOption('--file <path>', 'an .xlsx or .csv with a header row (name, number, email)')
    .option('--dry-run', 'read and check every row, write nothing')
    .option('--json', 'print the report as JSON')

export function registerImports(program: Command): void {
  const contacts = program.command('contacts').description("a company's contacts").addHelpText('after', EMBEDDED_DATABASE_NOTE)
  withImportOptions(contacts.command('import').description("import contacts from a spreadsheet; numbers the company has are left as they are"))
    .addHelpText('after', '\nExample: zapdesk contacts import --company Acme --file clients.xlsx --dry-run')
    .action(async (options: ImportOptions) => {
      const report = await withDatabase(async (db, config) => {
        const company = await findCompanyByReference(db, options.company)
        return importContacts(db, config, { companyId: company.id, path: options.file, dryRun: Boolean(options.dryRun), progress: (total) => progressBar('contacts', total) })
      })
      if (options.json) return printJson(report)
      printReport(report, 'Contacts')
    })

  const lists = program.command('contact-lists').description("a company's contact lists").addHelpText('after', EMBEDDED_DATABASE_NOTE)
  withImportOptions(lists.command('import').description('add the rows of a spreadsheet to a contact list; numbers the list holds are skipped'))
    .requiredOption('--list <list>', 'contact list id or name')
    .addHelpText('after', '\nExample: zapdesk contact-lists import --company Acme --list "Black Friday" --file leads.csv')
    .action(async (options: ImportOptions & { list: string }) => {
      const report = await withDatabase(async (db, config) => {
        const company = await findCompanyByReference(db, options.company)
        const list = await findListByReference(db, company.id, options.list)
        return importContactListItems(db, config, {
          companyId: company.id,
          contactListId: list.id,
          path: options.file,
          dryRun: Boolean(options.dryRun),
          progress: (total) => progressBar('list items', total),
        })
      })
      if (options.json) return printJson(report)
      printReport(report, 'Items')
    })
}
