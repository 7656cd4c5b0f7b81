// One chart of the dashboard: a titled card with a bar chart (recharts) whose bars open the tickets
// behind them. Colours come from the theme's variables, so light and dark need no code.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

export type ChartBar = { key: string; label: string; total: number; tooltip?: string }

export type BarChartCardProps = {
  title: string
  /** A class naming the chart, for its styles and tests. */
  name: string
  bars: ChartBar[]
  totalLabel: string
  onOpen: (bar: ChartBar) => void
}

const tooltipStyle = { background: 'var(--surface-raised)', border: '1px solid var(--border)', color: 'var(--text)', borderRadius: 6 }

export function BarChartCard({ title, name, bars, totalLabel, onOpen }: BarChartCardProps) {
  return (
    <section className={`dashboard-card dashboard-chart ${name}`} aria-label={title}>
      <h2 className="dashboard-card-title">{title}</h2>
      <div className="dashboard-chart-body">
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} className="dashboard-grid" />
            <XAxis dataKey="label" tickLine={false} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} tickLine={false} width={48} />
            <Tooltip
              cursor={{ fill: 'var(--surface-hover)' }}
              contentStyle={tooltipStyle}
              labelStyle={{ color: 'var(--text)' }}
              itemStyle={{ color: 'var(--text)' }}
              labelFormatter={(label, payload) => (payload?.[0]?.payload as ChartBar | undefined)?.tooltip ?? String(label)}
            />
            <Bar
              dataKey="total"
              name={totalLabel}
              className="dashboard-bar"
              fill="var(--primary)"
              radius={[4, 4, 0, 0]}
              cursor="pointer"
              isAnimationActive={false}
              onClick={(_item, index) => {
                const bar = bars[index]
                if (bar) onOpen(bar)
              }}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </section>
  )
}
