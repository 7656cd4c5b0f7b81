// The platform's revenue, for super users on /financeiro: paid, open and overdue per month of due date
// (a stacked bar chart and the same figures as a table, which is what screen readers get), and the
// companies at risk. Loaded lazily: only super users download recharts for it.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { api } from '../../api/client.ts'
import { formatCalendarDate, formatMoney } from '../../i18n/format.ts'
import { GracePeriodForm } from './grace-period-form.tsx'

type Report = NonNullable<Awaited<ReturnType<(typeof api)['billing']['revenue']['get']>>['data']>

export default function RevenuePanel() {
  const { t, i18n } = useLingui()
  const [report, setReport] = useState<Report | null>(null)
  useEffect(() => {
    void api.billing.revenue.get({ query: { months: 12 } }).then(({ data }) => data && setReport(data))
  }, [])
  if (!report) return null
  const money = (value: number) => formatMoney(value, i18n.locale)
  return (
    <section className="revenue-panel" aria-labelledby="revenue-title">
      <h2 id="revenue-title" className="revenue-title">{t`Platform revenue`}</h2>
      <GracePeriodForm />
      <div className="revenue-chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={report.months}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="month" stroke="var(--text-muted)" />
            <YAxis stroke="var(--text-muted)" />
            <Tooltip formatter={(value) => money(Number(value))} contentStyle={{ background: 'var(--surface-raised)', border: '1px solid var(--border)' }} />
            <Legend />
            <Bar dataKey="paid" name={t({ message: 'Paid', context: 'revenue' })} stackId="revenue" fill="var(--success)" />
            <Bar dataKey="open" name={t({ message: 'Open', context: 'revenue' })} stackId="revenue" fill="var(--info)" />
            <Bar dataKey="overdue" name={t({ message: 'Overdue', context: 'revenue' })} stackId="revenue" fill="var(--danger)" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="revenue-tables">
        <table className="data-table" aria-label={t`Revenue per month`}>
          <thead>
            <tr>
              <th>{t`Month`}</th>
              <th className="align-end">{t({ message: 'Paid', context: 'revenue' })}</th>
              <th className="align-end">{t({ message: 'Open', context: 'revenue' })}</th>
              <th className="align-end">{t({ message: 'Overdue', context: 'revenue' })}</th>
            </tr>
          </thead>
          <tbody>
            {report.months.map((month) => (
              <tr key={month.month}>
                <td>{month.month}</td>
                <td className="align-end">{money(month.paid)}</td>
                <td className="align-end">{money(month.open)}</td>
                <td className="align-end">{money(month.overdue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="data-table" aria-label={t`Companies at risk`}>
          <thead>
            <tr>
              <th>{t`Company`}</th>
              <th>{t`Due date`}</th>
              <th className="align-end">{t`Days overdue`}</th>
              <th className="align-end">{t`Unpaid`}</th>
            </tr>
          </thead>
          <tbody>
            {report.atRisk.length === 0 ? (
              <tr>
                <td colSpan={4} className="data-table-empty">{t`No company is overdue.`}</td>
              </tr>
            ) : (
              report.atRisk.map((company) => (
                <tr key={company.companyId}>
                  <td>{company.name}</td>
                  <td>{formatCalendarDate(company.dueDate)}</td>
                  <td className="align-end">{company.daysOverdue}</td>
                  <td className="align-end">{money(company.unpaid)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
