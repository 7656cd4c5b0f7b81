// The sending moment of a scheduled message (§9): a date-and-time field in the browser's time zone,
// shown as dd/MM/yyyy HH:mm in every language, with a calendar popover to pick the day.
import { getLocalTimeZone, now, parseAbsoluteToLocal, type ZonedDateTime } from '@internationalized/date'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog as AriaDialog,
  FieldError,
  Group,
  Heading,
  I18nProvider,
  Label,
  Popover,
} from 'react-aria-components'
import { ChevronDownIcon, ChevronLeftIcon, ScheduleIcon } from '../../components/icons.tsx'
import { languageTags } from '../../i18n/languages.ts'
import { languageAtom } from '../../state/language.ts'
import { DEFAULT_SEND_DELAY_MS } from './schedule-rules.ts'

/** §9: one hour ahead, on the minute. */
export function defaultSendAt(): ZonedDateTime {
  return now(getLocalTimeZone())
    .add({ milliseconds: DEFAULT_SEND_DELAY_MS })
    .set({ second: 0, millisecond: 0 })
}

/** A stored moment in the browser's time zone. */
export function sendAtFromApi(value: string | Date): ZonedDateTime {
  return parseAbsoluteToLocal(new Date(value).toISOString())
}

/** ISO 8601 with the local offset (2026-11-22T10:30:00-03:00): the zone's name in brackets is not ISO. */
export function sendAtToApi(value: ZonedDateTime): string {
  return value.toString().replace(/\[[^\]]*\]$/, '')
}

export type SendAtFieldProps = {
  value: ZonedDateTime | null
  onChange: (value: ZonedDateTime | null) => void
  error?: string
  isReadOnly?: boolean
}

export function SendAtField({ value, onChange, error, isReadOnly }: SendAtFieldProps) {
  const { t } = useLingui()
  const language = useAtomValue(languageAtom)
  // en-US would order the segments month first with a 12-hour clock; §9 wants dd/MM/yyyy HH:mm.
  const locale = language === 'en' ? 'en-GB' : languageTags[language]
  return (
    <I18nProvider locale={locale}>
      <DatePicker
        className="field"
        value={value}
        onChange={onChange}
        granularity="minute"
        hourCycle={24}
        shouldForceLeadingZeros
        hideTimeZone
        isInvalid={Boolean(error)}
        isReadOnly={isReadOnly}
        isRequired
        validationBehavior="aria"
        name="sendAt"
      >
        <Label className="field-label">{t`Send at`}</Label>
        <Group className="field-frame schedule-date-group">
          <DateInput className="schedule-date-input">{(segment) => <DateSegment segment={segment} className="schedule-date-segment" />}</DateInput>
          {isReadOnly ? null : (
            <AriaButton className="field-toggle" aria-label={t`Choose the day`}>
              <ScheduleIcon />
            </AriaButton>
          )}
        </Group>
        <FieldError className="field-error">{error}</FieldError>
        <Popover className="popover schedule-date-popover">
          <AriaDialog className="schedule-date-dialog" aria-label={t`Choose the day`}>
            <Calendar className="schedule-mini-calendar">
              <header className="schedule-mini-calendar-header">
                <AriaButton slot="previous" className="button button-ghost button-icon" aria-label={t`Previous month`}>
                  <ChevronLeftIcon />
                </AriaButton>
                <Heading className="schedule-mini-calendar-title" />
                <AriaButton slot="next" className="button button-ghost button-icon schedule-next-month" aria-label={t`Next month`}>
                  <ChevronDownIcon />
                </AriaButton>
              </header>
              <CalendarGrid className="schedule-mini-calendar-grid">{(date) => <CalendarCell date={date} className="schedule-mini-calendar-cell" />}</CalendarGrid>
            </Calendar>
          </AriaDialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  )
}
