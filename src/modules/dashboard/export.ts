// The dashboard's tables as one .xlsx: the counters, the attendants, the ratings and the attendances
// per day of the period. Small (one row per agent or day), so the workbook is built in memory.
import { loadExcel } from '../../core/excel.ts'
import type { Actor } from '../../contracts/roles.ts'
import type { DashboardQuery } from './model.ts'
import { showDashboard, ticketsPerDay, type DashboardDeps } from './service.ts'
import { neutraliseFormula } from '../../core/spreadsheet-cells.ts'


export async function exportDashboard(deps: DashboardDeps, actor: Actor, query: DashboardQuery): Promise<{ fileName: string; body: ArrayBuffer }> {
  const dashboard = await showDashboard(deps, actor, query)
  const { from, to } = dashboard.range
  const perDay = await ticketsPerDay(deps, actor, { initialDate: from, finalDate: to, companyId: query.companyId })
  const ExcelJS = await loadExcel()
  const workbook = new ExcelJS.Workbook()
  const counters = workbook.addWorksheet('Counters')
  counters.columns = [{ header: 'figure', key: 'figure', width: 22 }, { header: 'value', key: 'value', width: 14 }]
  counters.addRows([
    { figure: 'from', value: from },
    { figure: 'to', value: to },
    ...Object.entries(dashboard.counters).map(([figure, value]) => ({ figure, value })),
  ])
  const attendants = workbook.addWorksheet('Attendants')
  attendants.columns = [
    { header: 'name', key: 'name', width: 28 },
    { header: 'rating', key: 'rating', width: 10 },
    { header: 'ratings', key: 'ratings', width: 10 },
    { header: 'avgSupportTime (min)', key: 'avgSupportTime', width: 20 },
    { header: 'tickets', key: 'tickets', width: 10 },
    { header: 'online', key: 'online', width: 10 },
  ]
  attendants.addRows(dashboard.attendants.map((row) => ({ ...row, name: neutraliseFormula(row.name) })))
  const csat = workbook.addWorksheet('Ratings')
  csat.columns = [{ header: 'rate', key: 'rate', width: 8 }, { header: 'total', key: 'total', width: 10 }]
  csat.addRows(dashboard.csat)
  const days = workbook.addWorksheet('Per day')
  days.columns = [{ header: 'day', key: 'day', width: 14 }, { header: 'total', key: 'total', width: 10 }]
  days.addRows(perDay.data.map((row) => ({ day: row.data ?? row.horario, total: row.total })))
  const buffer = await workbook.xlsx.writeBuffer()
  return { fileName: `dashboard-${from}-${to}.xlsx`, body: buffer as ArrayBuffer }
}
