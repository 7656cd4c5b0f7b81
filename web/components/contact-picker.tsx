// A contact chosen by autocomplete over the company's contacts (GET /contacts/list): §5 "New ticket"
// searches from 3 characters, debounced 500 ms. Used by the new-ticket modal and the schedule dialog;
// the modal also reads the typed text (onSearchChange) to prefill a contact it creates inline.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Button as AriaButton, ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components'
import { api } from '../api/client.ts'
import { ChevronDownIcon } from './icons.tsx'
import { TextField } from './text-field.tsx'
import { toastFailure } from './failure-toast.ts'

export type ContactChoice = { id: number; name: string; number: string }

/** §5: the contact search runs only with this many characters or more. */
export const CONTACT_SEARCH_MIN = 3
/** §5: contact searches are debounced 500 ms. */
const CONTACT_SEARCH_DELAY_MS = 500

export function contactLabel(contact: ContactChoice): string {
  return `${contact.name} (${contact.number})`
}

export type ContactPickerProps = {
  value: ContactChoice | null
  onChange: (contact: ContactChoice | null) => void
  /** The text as typed, for a caller that offers to create the contact it did not find. */
  onSearchChange?: (text: string) => void
  /** The contact cannot change (the dialog was opened for it, or the record is history). */
  isFixed?: boolean
  isRequired?: boolean
  autoFocus?: boolean
  error?: string
}

export function ContactPicker({ value, onChange, onSearchChange, isFixed, isRequired, autoFocus, error }: ContactPickerProps) {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState(value ? contactLabel(value) : '')
  const [options, setOptions] = useState<ContactChoice[]>([])
  const [searching, setSearching] = useState(false)

  // A contact set from outside (created inline, or a prefilled dialog) shows as the input's text.
  useEffect(() => {
    if (value) setSearch(contactLabel(value))
  }, [value])

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
          if (failure || !data) toastFailure(i18n, failure)
          else setOptions(data.map(({ id, name, number }) => ({ id, name, number })))
        })
        .catch((failure: unknown) => current && toastFailure(i18n, failure))
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
        onSearchChange?.(text)
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
      isRequired={isRequired}
      autoFocus={autoFocus}
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
            <p className="contact-picker-empty">
              {searching ? t`Searching…` : search.trim().length < CONTACT_SEARCH_MIN ? t`Type at least 3 characters` : t`No contact found.`}
            </p>
          )}
        >
          {(option: ContactChoice) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={contactLabel(option)}>
              {contactLabel(option)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  )
}
