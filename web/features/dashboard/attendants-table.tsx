// §3's attendants: name, rating 0-3 stars, average support time, online. A name opens the agent's attendances.
import { useLingui } from '@lingui/react/macro'
import { Button } from 'react-aria-components'
import { formatMinutes, starsOf } from './figures.ts'
import type { DashboardData } from './use-dashboard.ts'

type Attendant = DashboardData['attendants'][number]

function Stars({ rating }: { rating: number }) {
  const { t } = useLingui()
  const stars = starsOf(rating)
  return (
    <span className="dashboard-stars" role="img" aria-label={t`${stars} of 3 stars`} title={rating.toFixed(2)}>
      {[1, 2, 3].map((star) => (
        <span key={star} aria-hidden="true" className={star <= stars ? 'dashboard-star-on' : 'dashboard-star-off'}>
          ★
        </span>
      ))}
    </span>
  )
}

export function AttendantsTable({ attendants, onOpen }: { attendants: Attendant[]; onOpen: (attendant: Attendant) => void }) {
  const { t } = useLingui()
  return (
    <section className="dashboard-card dashboard-attendants" aria-label={t`Attendants`}>
      <h2 className="dashboard-card-title">{t`Attendants`}</h2>
      <div className="data-table-frame">
        <table className="data-table" aria-label={t`Attendants`}>
          <thead>
            <tr>
              <th scope="col">{t`Name`}</th>
              <th scope="col">{t`Rating`}</th>
              <th scope="col" data-align="end">{t`Average support time`}</th>
              <th scope="col" data-align="end">{t`Attendances`}</th>
              <th scope="col">{t`Status`}</th>
            </tr>
          </thead>
          <tbody>
            {attendants.map((attendant) => (
              <tr key={attendant.id}>
                <td>
                  <Button className="link-button" onPress={() => onOpen(attendant)}>
                    {attendant.name}
                  </Button>
                </td>
                <td>
                  <Stars rating={attendant.rating} />
                </td>
                <td data-align="end">{formatMinutes(attendant.avgSupportTime)}</td>
                <td data-align="end">{attendant.tickets}</td>
                <td>
                  <span className={attendant.online ? 'dashboard-online' : 'dashboard-offline'}>{attendant.online ? t`Online` : t`Offline`}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
