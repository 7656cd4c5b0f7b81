// The gauges read at scrape time from what owns the figure: the realtime hub's sockets and the
// stored statuses of the WhatsApp connections. Returns the function that unplugs them (app stop).
import { count, sql } from 'drizzle-orm'
import { whatsapps } from '../../../db/schema/index.ts'
import type { CoreDeps } from '../deps.ts'
import type { GaugeSource } from './registry.ts'

function plug(list: GaugeSource[], source: GaugeSource): () => void {
  list.push(source)
  return () => {
    const index = list.indexOf(source)
    if (index >= 0) list.splice(index, 1)
  }
}

export function plugMetricSources(deps: Pick<CoreDeps, 'db' | 'metrics'>, hub: { count(): number }): () => void {
  const { sources } = deps.metrics
  const unplugSockets = plug(sources.websockets, () => [{ labels: {}, value: hub.count() }])
  // Platform-wide and across instances (the stored status), one cheap grouped count per scrape.
  const unplugSessions = plug(sources.sessions, async () => {
    const rows = await deps.db.select({ status: whatsapps.status, value: count() }).from(whatsapps).groupBy(sql`${whatsapps.status}`)
    return rows.map((row) => ({ labels: { status: row.status }, value: row.value }))
  })
  return () => {
    unplugSockets()
    unplugSessions()
  }
}
