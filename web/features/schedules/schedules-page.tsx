// /schedules (§2 Other screens "Schedules"): the company's scheduled messages on a calendar (month, week,
// day, agenda), titled with their count, with search and add; a message opens its dialog. Live from the
// `schedule` channel. /schedules?contactId=N opens the add dialog for that contact, once.
import { useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { PlusIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { scheduleErrorMessage } from './schedule-errors.ts'
import type { ScheduleContact, ScheduleRecord } from './schedule-rules.ts'
import { MAX_SHOWN_SCHEDULES, useScheduleList } from './use-schedule-list.ts'

// The calendar (react-big-calendar, ~60 KB compressed) in a chunk of its own, fetched beside the page's
// first request for the schedules rather than before the page can paint its header.
const SchedulesCalendar = lazy(() => import('./schedules-calendar.tsx').then((module) => ({ default: module.SchedulesCalendar })))
// The dialog's date picker, calendar and autocomplete load when it first opens, not with the page.
const ScheduleDialog = lazy(() => import('./schedule-dialog.tsx').then((module) => ({ default: module.ScheduleDialog })))

type Opened = { kind: 'add'; contact?: ScheduleContact } | { kind: 'edit'; schedule: ScheduleRecord }

/**
 * The contactId the page was opened with: taken from the address (so that a reload does not open the
 * dialog again) and kept here until the dialog opened, since the page may mount more than once while
 * the session settles. Undefined: not read yet.
 */
let arrivalContactId: number | null | undefined

/** The contactId of the address, removed from it. */
function takeContactIdParam(): number | null {
  const url = new URL(location.href)
  const raw = url.searchParams.get('contactId')
  if (raw === null) return null
  url.searchParams.delete('contactId')
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`)
  const id = Number(raw)
  return Number.isInteger(id) && id > 0 ? id : null
}

export function SchedulesPage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const list = useScheduleList(search)
  const [opened, setOpened] = useState<Opened | null>(null)

  useEffect(() => {
    arrivalContactId ??= takeContactIdParam()
    const contactId = arrivalContactId
    if (contactId === null) return
    let current = true
    api
      .contacts({ id: contactId })
      .get()
      .then(({ data, error }) => {
        if (!current) return
        arrivalContactId = null
        if (error || !data) showToast('error', scheduleErrorMessage(i18n, apiErrorOf(error).code))
        else setOpened({ kind: 'add', contact: { id: data.id, name: data.name, number: data.number } })
      })
      .catch((failure: unknown) => current && showToast('error', scheduleErrorMessage(i18n, apiErrorOf(failure).code)))
    return () => {
      current = false
    }
    // On arrival only: the parameter is gone from the address afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // The dialog shows the live copy (a send that starts meanwhile makes it read-only), or the last one seen.
  const editing = opened?.kind === 'edit' ? (list.schedules.find((schedule) => schedule.id === opened.schedule.id) ?? opened.schedule) : undefined
  const count = list.count
  const maxShown = MAX_SHOWN_SCHEDULES

  return (
    <div className="admin-page schedules-page">
      <PageHeader title={`${t`Schedules`} (${count})`} onSearch={setSearch} searchLabel={t`Search schedules`}>
        <Button onPress={() => setOpened({ kind: 'add' })}>
          <PlusIcon />
          {t`Add schedule`}
        </Button>
      </PageHeader>
      {list.truncated ? <p className="schedule-muted">{t`Showing the latest ${maxShown} scheduled messages. Search to find older ones.`}</p> : null}
      <div className="schedules-frame" aria-busy={list.loading}>
        <Suspense fallback={null}>
          <SchedulesCalendar schedules={list.schedules} onOpen={(schedule) => setOpened({ kind: 'edit', schedule })} />
        </Suspense>
      </div>
      {opened ? (
        <Suspense fallback={null}>
          <ScheduleDialog
            isOpen
            onOpenChange={(isOpen) => !isOpen && setOpened(null)}
            schedule={editing}
            contact={opened.kind === 'add' ? opened.contact : undefined}
          />
        </Suspense>
      ) : null}
    </div>
  )
}
