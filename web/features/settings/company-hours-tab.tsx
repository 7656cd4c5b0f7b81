// The schedules tab (setting scheduleType 'company'): the company's week, seven weekdays with their
// opening and closing times (HH:MM, §9), checked before sending and saved with
// PUT /companies/{id}/schedules. Outside these hours customers get the out-of-hours message.
// Live: hours saved by another admin arrive on the `settings` channel and replace the week shown,
// unless this user has unsaved changes: then a notice offers them, and nothing typed is lost.
import { useLingui } from '@lingui/react/macro'
import { useRef, useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import type { ScheduleEntry } from '../../../src/modules/companies/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { showToast } from '../../components/toasts.tsx'
import { WeekHoursEditor } from '../../components/week-hours-editor.tsx'
import { serverScheduleProblem, weekOf, weekProblems, type TimeField } from '../../forms/week-hours.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { failureOf } from './requests.ts'
import '../../styles/live-notices.css'

/** A week as text for comparing, whatever order the keys came in (PostgreSQL's jsonb reorders them). */
function weekKey(week: readonly ScheduleEntry[]): string {
  return weekOf(week)
    .map((entry) => [entry.weekdayEn, entry.weekday, entry.startTime, entry.endTime].join(' '))
    .join('|')
}

export function CompanyHoursTab({ companyId }: { companyId: number }) {
  const { t, i18n } = useLingui()
  const [week, setWeek] = useState<ScheduleEntry[] | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)
  // Unsaved changes here; and hours saved elsewhere meanwhile, offered instead of applied.
  const [dirty, setDirty] = useState(false)
  const [incoming, setIncoming] = useState<ScheduleEntry[] | null>(null)
  // The week this page itself sent last: its own echo on the channel changes nothing.
  const lastSent = useRef<string | null>(null)

  useChannel('settings', (event) => {
    if (event.action !== 'schedules') return
    const heard = weekOf(event.schedules)
    if (weekKey(heard) === lastSent.current) return
    if (dirty) setIncoming(heard)
    else setWeek(heard)
  })

  useEffect(() => {
    let current = true
    api
      .companies({ id: companyId })
      .get()
      .then(({ data, error }) => {
        if (!current) return
        if (error || !data) showToast('error', failureOf(i18n, error).text)
        else setWeek(weekOf(data.schedules))
      })
      .catch((failure: unknown) => current && showToast('error', failureOf(i18n, failure).text))
    return () => {
      current = false
    }
  }, [companyId, i18n])

  if (!week) {
    return (
      <p className="muted-note" role="status">
        {t`Loading…`}
      </p>
    )
  }

  const messages = { time: t`Use HH:MM, from 00:00 to 23:59.`, order: t`Closing must not be before opening.` }

  const change = (index: number, field: TimeField, value: string) => {
    setDirty(true)
    setWeek((current) => current && current.map((entry, at) => (at === index ? { ...entry, [field]: value.trim() } : entry)))
    setErrors(({ [`schedules.${index}.${field}`]: _fixed, ...rest }) => rest)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = Object.fromEntries(Object.entries(weekProblems(week)).map(([field, problem]) => [field, messages[problem]]))
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    lastSent.current = weekKey(week)
    try {
      const { data, error } = await api.companies({ id: companyId }).schedules.put({ id: companyId, schedules: week })
      if (error || !data) {
        const { failure, text } = failureOf(i18n, error)
        const fromServer: Record<string, string> = {}
        for (const { field, message } of failure.fields) {
          const problem = serverScheduleProblem(field, message)
          if (problem) fromServer[field] = messages[problem]
        }
        setErrors(fromServer)
        showToast('error', text)
        return
      }
      setWeek(weekOf(data.schedules))
      lastSent.current = weekKey(data.schedules)
      setDirty(false)
      // This save replaced whatever was saved elsewhere before it.
      setIncoming(null)
      showToast('success', t`Schedules saved.`)
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="settings-hours" onSubmit={submit} validationBehavior="aria">
      <p className="field-description">{t`The company's business hours. Outside them customers get the out-of-hours message. 00:00 to 00:00: closed all day.`}</p>
      {incoming ? (
        <div className="live-notice" role="status">
          <span>{t`Another admin saved different hours. Saving keeps yours; you can load theirs instead.`}</span>
          <Button
            variant="secondary"
            onPress={() => {
              setWeek(incoming)
              setIncoming(null)
              setDirty(false)
              setErrors({})
            }}
          >
            {t`Load their hours`}
          </Button>
        </div>
      ) : null}
      <WeekHoursEditor week={week} onChange={change} errorOf={(field) => errors[field]} idPrefix="company-hours" caption={t`Business hours of the company`} />
      <div className="dialog-actions">
        <Button type="submit" isPending={pending}>
          {t`Save schedules`}
        </Button>
      </div>
    </Form>
  )
}
