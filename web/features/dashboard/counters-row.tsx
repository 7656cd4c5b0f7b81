// §3's five counters, each a button opening the attendances it counts.
import { useLingui } from '@lingui/react/macro'
import { Button } from 'react-aria-components'
import type { DrillDownTarget } from './drill-down-dialog.tsx'
import { formatMinutes } from './figures.ts'
import type { DashboardData } from './use-dashboard.ts'

export function CountersRow({ counters, onOpen }: { counters: DashboardData['counters']; onOpen: (target: DrillDownTarget) => void }) {
  const { t } = useLingui()
  const cards: { id: string; label: string; value: string; target: DrillDownTarget }[] = [
    { id: 'happening', label: t`In service`, value: String(counters.supportHappening), target: { title: t`In service`, filter: { state: 'happening' } } },
    { id: 'pending', label: t`Waiting`, value: String(counters.supportPending), target: { title: t`Waiting`, filter: { state: 'pending' } } },
    { id: 'finished', label: t`Finished`, value: String(counters.supportFinished), target: { title: t`Finished`, filter: { state: 'finished' } } },
    { id: 'support', label: t`Average support time`, value: formatMinutes(counters.avgSupportTime), target: { title: t`Finished`, filter: { state: 'finished' } } },
    { id: 'wait', label: t`Average wait time`, value: formatMinutes(counters.avgWaitTime), target: { title: t`All attendances`, filter: {} } },
  ]
  return (
    <ul className="dashboard-counters" aria-label={t`Counters`}>
      {cards.map((card) => (
        <li key={card.id}>
          <Button className="dashboard-card dashboard-counter" data-counter={card.id} onPress={() => onOpen(card.target)}>
            <span className="dashboard-counter-label">{card.label}</span>
            <span className="dashboard-counter-value">{card.value}</span>
          </Button>
        </li>
      ))}
    </ul>
  )
}
