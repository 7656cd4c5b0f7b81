// /tickets with no ticket open: the logo placeholder of §2 Tickets.
import { useLingui } from '@lingui/react/macro'
import { LogoMark } from '../../components/logo.tsx'

export function NoTicketSelected() {
  const { t } = useLingui()
  return (
    <section className="tickets-empty" aria-labelledby="tickets-heading">
      <h1 id="tickets-heading" className="visually-hidden">
        {t`Tickets`}
      </h1>
      <div className="tickets-empty-logo">
        <LogoMark size={160} />
      </div>
    </section>
  )
}
