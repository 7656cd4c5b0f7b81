// A labelled single-choice list (react-aria Select): keyboard typeahead, arrow keys, announced options.
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  type Key,
} from 'react-aria-components'
import { ChevronDownIcon } from './icons.tsx'

export type SelectOption = { id: Key; label: string }

export type SelectProps = {
  label: string
  options: SelectOption[]
  value: Key | null
  onChange: (value: Key | null) => void
  placeholder?: string
  error?: string
  isRequired?: boolean
  isDisabled?: boolean
  name?: string
  /** Set by LazySelect when its stand-in was focused or pressed before this chunk arrived. */
  autoFocus?: boolean
  defaultOpen?: boolean
}

export function Select({ label, options, value, onChange, placeholder, error, isRequired, isDisabled, name, autoFocus, defaultOpen }: SelectProps) {
  return (
    <AriaSelect
      className="field"
      selectedKey={value}
      onSelectionChange={onChange}
      placeholder={placeholder}
      isInvalid={Boolean(error)}
      isRequired={isRequired}
      isDisabled={isDisabled}
      name={name}
      autoFocus={autoFocus}
      defaultOpen={defaultOpen}
      validationBehavior="aria"
    >
      <Label className="field-label">{label}</Label>
      <Button className="field-frame select-button">
        <SelectValue className="select-value" />
        <ChevronDownIcon />
      </Button>
      <FieldError className="field-error">{error}</FieldError>
      <Popover className="popover select-popover">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  )
}
