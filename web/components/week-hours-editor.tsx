// The weekly hours table: one row per weekday with its opening and closing time (HH:MM), each
// labelled with its day and announcing its error. The rules live in web/forms/week-hours.ts.
import { useLingui } from '@lingui/react/macro'
import { Input, TextField } from 'react-aria-components'
import type { ScheduleEntry } from '../../src/modules/companies/model.ts'
import { weekdays, type TimeField } from '../forms/week-hours.ts'

export type WeekHoursEditorProps = {
  week: readonly ScheduleEntry[]
  onChange: (index: number, field: TimeField, value: string) => void
  /** The error shown under a time, by its field name `schedules.<index>.startTime|endTime`. */
  errorOf: (field: string) => string | undefined
  /** Prefix of the error ids, unique on the page. */
  idPrefix: string
  /** A caption for assistive technology (the table is not otherwise named). */
  caption?: string
}

export function WeekHoursEditor({ week, onChange, errorOf, idPrefix, caption }: WeekHoursEditorProps) {
  const { t, i18n } = useLingui()
  return (
    <table className="week-hours-table">
      {caption ? <caption className="visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">{t`Weekday`}</th>
          <th scope="col">{t`Opens`}</th>
          <th scope="col">{t`Closes`}</th>
        </tr>
      </thead>
      <tbody>
        {week.map((entry, index) => {
          const day = weekdays.find((candidate) => candidate.weekdayEn === entry.weekdayEn)
          const dayName = day ? i18n._(day.label) : entry.weekday
          return (
            <tr key={entry.weekdayEn}>
              <th scope="row">{dayName}</th>
              {(['startTime', 'endTime'] as const).map((field) => {
                const error = errorOf(`schedules.${index}.${field}`)
                const errorId = `${idPrefix}-${index}-${field}-error`
                return (
                  <td key={field}>
                    <TextField
                      className="week-time"
                      value={entry[field]}
                      onChange={(value) => onChange(index, field, value)}
                      aria-label={field === 'startTime' ? t`${dayName} opens` : t`${dayName} closes`}
                      isInvalid={Boolean(error)}
                      validationBehavior="aria"
                      maxLength={5}
                      aria-describedby={error ? errorId : undefined}
                    >
                      <Input className="field-frame field-input" placeholder="HH:MM" inputMode="numeric" />
                    </TextField>
                    {error ? (
                      <p className="field-error" id={errorId}>
                        {error}
                      </p>
                    ) : null}
                  </td>
                )
              })}
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
