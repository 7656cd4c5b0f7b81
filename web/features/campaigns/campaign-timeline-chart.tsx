// The report's timeline (sent, delivered, read, replied over time). Its own module so that the chart
// library (recharts and d3, ~110 KB compressed) loads in a chunk of its own, after the totals.
import { useLingui } from '@lingui/react/macro'
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

export type TimelinePoint = { at: string; sent: number; delivered: number; read: number; replied: number }

export default function CampaignTimelineChart({ points }: { points: TimelinePoint[] }) {
  const { t } = useLingui()
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={points}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis dataKey="at" stroke="var(--text-muted)" />
        <YAxis allowDecimals={false} stroke="var(--text-muted)" />
        <Tooltip />
        <Legend />
        <Line type="monotone" dataKey="sent" name={t`Sent`} stroke="#2563eb" dot={false} isAnimationActive={false} />
        <Line type="monotone" dataKey="delivered" name={t`Delivered`} stroke="#16a34a" dot={false} isAnimationActive={false} />
        <Line type="monotone" dataKey="read" name={t`Read`} stroke="#9333ea" dot={false} isAnimationActive={false} />
        <Line type="monotone" dataKey="replied" name={t`Replied`} stroke="#ea580c" dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  )
}
