// What an import did (or, in a dry run, would do): per source table the rows read, imported, already
// imported by an earlier run and left out; and each conflict or problem with the row it concerns.
export type EntityCounts = { entity: string; read: number; imported: number; alreadyImported: number; skipped: number }
export type ImportIssue = { entity: string; sourceId: string; reason: string; message: string }
export type WhaticketReport = {
  source: string
  dryRun: boolean
  /** The source companies imported (their source ids). */
  companies: number[]
  entities: EntityCounts[]
  media: { copied: number; missing: number }
  /** The first issues; issuesTotal counts them all. */
  issues: ImportIssue[]
  issuesTotal: number
}

/** Enough to act on without flooding a terminal (or a JSON file) when a whole table has one problem. */
const MAX_LISTED_ISSUES = 500

export function createReport(input: { source: string; dryRun: boolean; companies: number[] }) {
  const report: WhaticketReport = { ...input, entities: [], media: { copied: 0, missing: 0 }, issues: [], issuesTotal: 0 }
  const counts = new Map<string, EntityCounts>()
  const of = (entity: string) => {
    let entry = counts.get(entity)
    if (!entry) {
      entry = { entity, read: 0, imported: 0, alreadyImported: 0, skipped: 0 }
      counts.set(entity, entry)
      report.entities.push(entry)
    }
    return entry
  }
  return {
    report,
    of,
    /** A row that could not be imported as it is: skipped, merged or changed, and why. */
    issue(entity: string, sourceId: string | number, reason: string, message: string, options: { skipped?: boolean } = {}) {
      if (options.skipped) of(entity).skipped += 1
      report.issuesTotal += 1
      if (report.issues.length < MAX_LISTED_ISSUES) report.issues.push({ entity, sourceId: String(sourceId), reason, message })
    },
  }
}

export type ReportBuilder = ReturnType<typeof createReport>
