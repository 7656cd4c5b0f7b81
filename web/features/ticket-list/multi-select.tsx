// A compact multiple choice (queues, tags, users): a button naming the filter and how many are chosen,
// opening a listbox with checkable options (react-aria: arrows, Space, typeahead, Escape).
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button, Dialog, DialogTrigger, ListBox, ListBoxItem, Popover, type Selection } from 'react-aria-components'
import { ChevronDownIcon } from '../../components/icons.tsx'

export type MultiOption = { id: number; label: string; color?: string }

export type MultiSelectProps = {
  label: string
  options: readonly MultiOption[]
  selected: readonly number[]
  onChange: (ids: number[]) => void
  icon?: ReactNode
  className?: string
}

export function MultiSelect({ label, options, selected, onChange, icon, className }: MultiSelectProps) {
  const { t } = useLingui()
  const chosen = selected.length
  const onSelectionChange = (keys: Selection) => {
    const ids = keys === 'all' ? options.map((option) => option.id) : [...keys].map(Number)
    onChange(ids)
  }
  return (
    <DialogTrigger>
      <Button className={`button button-secondary multi-select-button ${className ?? ''}`} aria-label={t`${label}: ${chosen} selected`}>
        {icon}
        <span className="multi-select-label">{label}</span>
        {chosen > 0 ? (
          <span className="multi-select-count" aria-hidden="true">
            {chosen}
          </span>
        ) : null}
        <ChevronDownIcon />
      </Button>
      <Popover className="popover multi-select-popover" placement="bottom start">
        <Dialog className="multi-select-dialog" aria-label={label}>
          {options.length === 0 ? (
            <p className="multi-select-empty">{t`Nothing to choose from.`}</p>
          ) : (
            <ListBox
              className="listbox"
              aria-label={label}
              selectionMode="multiple"
              // Escape closes the popover; it must not also clear what was chosen (react-aria's default).
              escapeKeyBehavior="none"
              selectedKeys={new Set(selected)}
              onSelectionChange={onSelectionChange}
              items={options}
              autoFocus
            >
              {(option) => (
                <ListBoxItem className="listbox-item multi-select-item" id={option.id} textValue={option.label}>
                  {({ isSelected }) => (
                    <>
                      <span className={`multi-select-check ${isSelected ? 'is-checked' : ''}`} aria-hidden="true">
                        {isSelected ? '✓' : ''}
                      </span>
                      {option.color ? <span className="multi-select-swatch" style={{ background: option.color }} aria-hidden="true" /> : null}
                      {option.label}
                    </>
                  )}
                </ListBoxItem>
              )}
            </ListBox>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  )
}
