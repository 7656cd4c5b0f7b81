// The retention report as admins read it (GET /data-retention/reports).
import { t } from 'elysia'

export const RetentionReport = t.Object({
  id: t.Integer(),
  retentionDays: t.Integer({ description: "The company's setting when the run started" }),
  cutoff: t.Date({ description: 'Messages of tickets closed (last updated) before this instant were erased' }),
  messagesErased: t.Integer(),
  filesRemoved: t.Integer(),
  filesFailed: t.Integer({ description: 'Files that could not be removed (their messages are gone all the same)' }),
  status: t.Union([t.Literal('running'), t.Literal('done'), t.Literal('failed')]),
  error: t.Nullable(t.String()),
  startedAt: t.Date(),
  finishedAt: t.Nullable(t.Date()),
})
export type RetentionReport = typeof RetentionReport.static

export const RetentionReportPage = t.Object({ reports: t.Array(RetentionReport), count: t.Integer(), hasMore: t.Boolean() })

export const RetentionReportQuery = t.Object({
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
})
