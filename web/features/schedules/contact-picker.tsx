// Who receives a scheduled message: an autocomplete over the company's contacts (GET /contacts/list,
// from 3 characters, once the typing pauses), or a fixed contact when the dialog was opened for one.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Button as AriaButton, ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { ChevronDownIcon } from '../../components/icons.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { scheduleErrorMessage } from './schedule-errors.ts'
import type { ScheduleContact } from './schedule-rules.ts'

/** §5 New ticket (the same autocomplete): the search starts at 3 characters. */
export const CONTACT_SEARCH_MIN = 3
const CONTACT_SEARCH_DELAY_MS = 300

export function contactLabel(contact: ScheduleContact): string {
  return `${contact.name} (${contact.number})`
}

export type ContactPickerProps = {
  value: ScheduleContact | null
  onChange: (contact: ScheduleContact | null) => void
  /** The contact cannot change (the dialog was opened for it, or the message is history). */
  isFixed?: boolean
  error?: string
}

export function ContactPicker({ value, onChange, isFixed, error }: ContactPickerProps) {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState(value ? contactLabel(value) : '')
  const [options, setOptions] = useState<ScheduleContact[]>([])
  const [searching, setSearching] = useState(false)

  useEffect(() => {
    const term = search.trim()
    if (isFixed || term.length < CONTACT_SEARCH_MIN || (value && contactLabel(value) === search)) {
      setOptions([])
      return
    }
    let current = true
    const timer = setTimeout(() => {
      setSearching(true)
      api.contacts.list
        .get({ query: { searchParam: term } })
        .then(({ data, error: failure }) => {
          if (!current) return
          if (failure || !data) showToast('error', scheduleErrorMessage(i18n, apiErrorOf(failure).code))
          else setOptions(data.map(({ id, name, number }) => ({ id, name, number })))
        })
        .catch((failure: unknown) => current && showToast('error', scheduleErrorMessage(i18n, apiErrorOf(failure).code)))
        .finally(() => current && setSearching(false))
    }, CONTACT_SEARCH_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [search, value, isFixed, i18n])

  if (isFixed) return <TextField label={t`Contact`} value={value ? contactLabel(value) : ''} isReadOnly name="contact" error={error} />

  return (
    <ComboBox
      className="field"
      inputValue={search}
      onInputChange={(text) => {
        setSearch(text)
        if (value && text !== contactLabel(value)) onChange(null)
      }}
      selectedKey={value?.id ?? null}
      onSelectionChange={(key) => {
        const chosen = options.find((option) => option.id === Number(key))
        if (!chosen) return
        onChange(chosen)
        setSearch(contactLabel(chosen))
      }}
      items={options}
      menuTrigger="input"
      allowsEmptyCollection
      isInvalid={Boolean(error)}
      isRequired
      validationBehavior="aria"
    >
      <Label className="field-label">{t`Contact`}</Label>
      <div className="field-frame">
        <Input className="field-input" placeholder={t`Type at least 3 characters`} />
        <AriaButton className="field-toggle" aria-label={t`Show contacts`}>
          <ChevronDownIcon />
        </AriaButton>
      </div>
      <FieldError className="field-error">{error}</FieldError>
      <Popover className="popover select-popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <p className="schedule-picker-empty">
              {searching ? t`Searching…` : search.trim().length < CONTACT_SEARCH_MIN ? t`Type at least 3 characters` : t`No contact found.`}
            </p>
          )}
        >
          {(option: ScheduleContact) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={contactLabel(option)}>
              {contactLabel(option)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  )
}
