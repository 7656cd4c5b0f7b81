// `zapdesk import whaticket`: a Whaticket SaaS / Atendechat database into Zapdesk, table by table in
// the order their references need. The rows are written straight into our tables, not through the
// services: this is history, and a service would fire webhooks, chatbot and AI answers and realtime
// frames for conversations that ended long ago. The database's own rules (unique numbers, one open
// ticket per contact and connection, tenant composite keys) still hold; a row they refuse is reported.
import type { Database } from '../../db/client.ts'
import type { Config } from '../../src/config.ts'
import { cliDeps } from '../deps.ts'
import { CliError } from '../output.ts'
import type { Progress } from '../progress.ts'
import { type ImportContext, runStep } from './context.ts'
import { contactFieldStep, contactStep, tagStep } from './contacts.ts'
import { quickMessageStep, scheduleStep } from './desk.ts'
import { createMappings } from './mappings.ts'
import { createMediaCopier } from './media.ts'
import { createReport, type WhaticketReport } from './report.ts'
import { openSource } from './source.ts'
import { createQueueOptionStep, linkPendingParents, type PendingParent, queueStep, userQueueStep, userStep, whatsappQueueStep, whatsappStep } from './team.ts'
import { settingStep, companyStep, planStep } from './tenants.ts'
import { createMessageStep, linkPendingQuotes, ticketStep, ticketTagStep, type PendingQuote } from './tickets.ts'

export type { WhaticketReport } from './report.ts'

export type WhaticketImportInput = {
  from: string
  companyId?: number
  dryRun: boolean
  mediaFolder?: string
  sourceName?: string
  batchSize?: number
  progress: (label: string, total: number) => Progress
}

/** Thrown inside the dry run's transaction so that everything it wrote is rolled back. */
class DryRunRollback extends Error {}

export async function importWhaticket(db: Database, config: Config, input: WhaticketImportInput): Promise<WhaticketReport> {
  const source = await openSource(input.from, input.sourceName)
  try {
    const companies = await source.companyIds(input.companyId)
    if (input.companyId !== undefined && companies.length === 0) throw new CliError(`the source database has no company ${input.companyId}`)
    const builder = createReport({ source: source.name, dryRun: input.dryRun, companies })
    const deps = cliDeps(db, config)
    const run = async (target: ImportContext['db']) => {
      const context: ImportContext = {
        db: target,
        source,
        companyId: input.companyId,
        wholeInstallation: input.companyId === undefined,
        mappings: createMappings(source.name),
        media: createMediaCopier({ folder: input.mediaFolder, storage: deps.storage, maxBytes: config.media.maxBytes, dryRun: input.dryRun, report: builder }),
        report: builder,
        progress: input.progress,
        batchSize: input.batchSize ?? 500,
        config,
      }
      const pendingParents: PendingParent[] = []
      const pendingQuotes: PendingQuote[] = []
      for (const step of [planStep, companyStep, settingStep, queueStep, createQueueOptionStep(pendingParents), whatsappStep, whatsappQueueStep, userStep, userQueueStep]) {
        await runStep(context, step)
      }
      await linkPendingParents(context, pendingParents)
      for (const step of [contactStep, contactFieldStep, tagStep, ticketStep, ticketTagStep, createMessageStep(pendingQuotes), quickMessageStep, scheduleStep]) {
        await runStep(context, step)
      }
      await linkPendingQuotes(context, pendingQuotes)
    }
    if (!input.dryRun) {
      await run(db)
    } else {
      // A dry run is the import itself inside one transaction that is rolled back: its report is exact
      // (conflicts included) and nothing stays. Media files are only looked for, never copied.
      await db
        .transaction(async (tx) => {
          await run(tx)
          throw new DryRunRollback()
        })
        .catch((error: unknown) => {
          if (!(error instanceof DryRunRollback)) throw error
        })
    }
    return builder.report
  } finally {
    await source.close()
  }
}
