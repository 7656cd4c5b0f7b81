// The tickets page (§2 Tickets): the list at left and the open ticket at right on a wide screen; on a
// narrow one two tabs, the list ("Tickets") and the open ticket ("Attendance"), switching to the
// latter when a ticket is opened. With no ticket open, the logo placeholder.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components'
import { usePageTitle } from '../../components/providers.tsx'
import { useViewportWidth } from '../../components/layout/use-viewport-width.ts'
import { TicketsManager } from '../ticket-list/tickets-manager.tsx'
import { TicketPanel } from '../ticket/ticket-panel.tsx'
import { NoTicketSelected } from './no-ticket-selected.tsx'
import { selectedTicketUuidAtom, useSelectionFollowsHistory } from './selection.ts'
import '../../styles/inbox.css'

/** Below this width the list and the chat share the screen through two tabs. */
export const NARROW_INBOX_BELOW = 900

type NarrowTab = 'tickets' | 'attendance'

export function InboxPage() {
  const { t } = useLingui()
  usePageTitle(t`Tickets`)
  useSelectionFollowsHistory()
  const selectedUuid = useAtomValue(selectedTicketUuidAtom)
  const narrow = useViewportWidth() < NARROW_INBOX_BELOW
  const [tab, setTab] = useState<NarrowTab>(selectedUuid ? 'attendance' : 'tickets')

  useEffect(() => {
    setTab(selectedUuid ? 'attendance' : 'tickets')
  }, [selectedUuid])

  const ticketSide = selectedUuid ? <TicketPanel key={selectedUuid} uuid={selectedUuid} /> : <NoTicketSelected />

  if (narrow) {
    return (
      <Tabs className="inbox inbox-narrow" selectedKey={tab} onSelectionChange={(key) => setTab(key as NarrowTab)}>
        <TabList className="inbox-tabs" aria-label={t`Inbox`}>
          <Tab id="tickets">{t`Tickets`}</Tab>
          <Tab id="attendance">{t`Attendance`}</Tab>
        </TabList>
        <TabPanel id="tickets" className="inbox-pane">
          <TicketsManager />
        </TabPanel>
        <TabPanel id="attendance" className="inbox-pane">
          {ticketSide}
        </TabPanel>
      </Tabs>
    )
  }
  return (
    <div className="inbox inbox-wide">
      <section className="inbox-list" aria-label={t`Tickets`}>
        <TicketsManager />
      </section>
      <section className="inbox-ticket" aria-label={t`Attendance`}>
        {ticketSide}
      </section>
    </div>
  )
}
