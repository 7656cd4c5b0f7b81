// The schedules on react-big-calendar (the stack's calendar, with its dayjs localizer): month, week, day
// and agenda views, names of months and days in the interface language, times as HH:mm (§9), and each
// message styled by its status (a failed send stands out). Loaded only by the /schedules island.
import { useLingui } from '@lingui/react/macro'
import dayjs from 'dayjs'
import 'dayjs/locale/es'
import 'dayjs/locale/pt-br'
import { useAtomValue } from 'jotai'
import { useMemo, useState } from 'react'
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components'
import { Calendar, dayjsLocalizer, type DateLocalizer, type EventProps, type Formats, type Messages, type ToolbarProps, type View } from 'react-big-calendar'
import 'react-big-calendar/lib/css/react-big-calendar.css'
import { Button } from '../../components/button.tsx'
import { ChevronDownIcon, ChevronLeftIcon } from '../../components/icons.tsx'
import type { Language } from '../../i18n/languages.ts'
import { languageAtom } from '../../state/language.ts'
import { toCalendarEntries, type CalendarEntry, type ScheduleRecord } from './schedule-rules.ts'
import { scheduleStatusClass, scheduleStatusLabels } from './schedule-status.ts'
import '../../styles/schedules.css'

const localizer = dayjsLocalizer(dayjs)
const cultures: Record<Language, string> = { pt: 'pt-br', en: 'en', es: 'es' }
export const scheduleViews = ['month', 'week', 'day', 'agenda'] as const satisfies readonly View[]
type ScheduleView = (typeof scheduleViews)[number]
const calendarViews: View[] = [...scheduleViews]

const at = (date: Date, pattern: string, culture: string | undefined, local: DateLocalizer | undefined) =>
  local ? local.format(date, pattern, culture) : dayjs(date).format(pattern)

/** §9 dd/MM/yyyy and HH:mm. A message goes out at one moment: events show their start only. */
const formats: Formats = {
  timeGutterFormat: 'HH:mm',
  eventTimeRangeFormat: ({ start }, culture, local) => at(start, 'HH:mm', culture, local),
  agendaTimeRangeFormat: ({ start }, culture, local) => at(start, 'HH:mm', culture, local),
  agendaTimeFormat: 'HH:mm',
  agendaDateFormat: 'ddd DD/MM/YYYY',
  agendaHeaderFormat: ({ start, end }, culture, local) => `${at(start, 'DD/MM/YYYY', culture, local)} – ${at(end, 'DD/MM/YYYY', culture, local)}`,
  dayFormat: 'ddd DD/MM',
  dayHeaderFormat: 'dddd, DD/MM/YYYY',
  dayRangeHeaderFormat: ({ start, end }, culture, local) => `${at(start, 'DD/MM', culture, local)} – ${at(end, 'DD/MM/YYYY', culture, local)}`,
  monthHeaderFormat: 'MMMM YYYY',
}

export type SchedulesCalendarProps = {
  schedules: ScheduleRecord[]
  onOpen: (schedule: ScheduleRecord) => void
}

export function SchedulesCalendar({ schedules, onOpen }: SchedulesCalendarProps) {
  const { t } = useLingui()
  const language = useAtomValue(languageAtom)
  const [view, setView] = useState<ScheduleView>('month')
  const [date, setDate] = useState(() => new Date())
  const events = useMemo(() => schedules.flatMap(toCalendarEntries), [schedules])
  // The week and day views open at the current hour; one value, or every live change would scroll back.
  const [scrollToTime] = useState(() => new Date(new Date().setMinutes(0, 0, 0)))

  const messages = useMemo<Messages<CalendarEntry>>(
    () => ({
      date: t`Date`,
      time: t`Time`,
      event: t`Message`,
      allDay: t`All day`,
      week: t`Week`,
      work_week: t`Work week`,
      day: t`Day`,
      month: t`Month`,
      previous: t`Previous`,
      next: t`Next`,
      yesterday: t`Yesterday`,
      tomorrow: t`Tomorrow`,
      today: t`Today`,
      agenda: t`Agenda`,
      noEventsInRange: t`No messages scheduled in this period.`,
      showMore: (total: number) => t`+${total} more`,
    }),
    [t],
  )

  return (
    <div className="schedules-calendar">
      <Calendar<CalendarEntry>
        localizer={localizer}
        culture={cultures[language]}
        events={events}
        views={calendarViews}
        view={view}
        onView={(next) => setView(next as ScheduleView)}
        date={date}
        onNavigate={setDate}
        messages={messages}
        formats={formats}
        popup
        scrollToTime={scrollToTime}
        tooltipAccessor={(entry) => entry.title}
        onSelectEvent={(entry) => onOpen(entry.schedule)}
        eventPropGetter={(entry) => ({ className: `schedule-event ${scheduleStatusClass(entry.schedule.status)}` })}
        components={{ toolbar: ScheduleToolbar, event: ScheduleEventLabel, agenda: { event: ScheduleEventLabel } }}
      />
    </div>
  )
}

/** The toolbar with the app's buttons: today, previous, next, the period's name and the views. */
function ScheduleToolbar({ label, view, onNavigate, onView, localizer: { messages } }: ToolbarProps<CalendarEntry>) {
  const { t } = useLingui()
  return (
    <div className="schedules-toolbar">
      <div className="schedules-toolbar-nav">
        <Button variant="secondary" onPress={() => onNavigate('TODAY')}>
          {messages.today}
        </Button>
        <Button variant="ghost" icon aria-label={String(messages.previous)} onPress={() => onNavigate('PREV')}>
          <ChevronLeftIcon />
        </Button>
        <Button variant="ghost" icon aria-label={String(messages.next)} onPress={() => onNavigate('NEXT')}>
          <ChevronDownIcon className="schedule-next-icon" />
        </Button>
        <h2 className="schedules-toolbar-label" aria-live="polite">
          {label}
        </h2>
      </div>
      <ToggleButtonGroup
        className="schedules-view-switch"
        aria-label={t`Calendar view`}
        selectionMode="single"
        disallowEmptySelection
        selectedKeys={[view]}
        onSelectionChange={(keys) => {
          const [next] = [...keys]
          if (next) onView(next as View)
        }}
      >
        {scheduleViews.map((name) => (
          <ToggleButton key={name} id={name} className="schedules-view-button">
            {messages[name]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </div>
  )
}

/** An event: its status when it is not simply waiting, a mark when it repeats, then contact and text. A button, for the keyboard. */
function ScheduleEventLabel({ event }: EventProps<CalendarEntry>) {
  const { i18n, t } = useLingui()
  const status = event.schedule.status
  return (
    <button type="button" className="schedule-event-button">
      {status === 'PENDENTE' ? null : <span className={`schedule-event-status ${scheduleStatusClass(status)}`}>{i18n._(scheduleStatusLabels[status])}</span>}
      {event.schedule.recurrence ? (
        <span className="schedule-event-repeat" title={t`Repeats`}>
          ↻<span className="visually-hidden">{t`Repeats`}</span>
        </span>
      ) : null}
      <span className="schedule-event-title">{event.title}</span>
    </button>
  )
}
