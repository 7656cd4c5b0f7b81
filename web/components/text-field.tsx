// A labelled text input with its description and error, announced to assistive technology.
import type { ReactNode } from 'react'
import { Input, Label, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components'
import { FieldHelp } from './field-help.tsx'

export type TextFieldProps = Omit<AriaTextFieldProps, 'children' | 'isInvalid'> & {
  label: string
  description?: ReactNode
  /** The message shown under the field; the field is marked invalid while there is one. */
  error?: string
  placeholder?: string
  /** Extra control inside the field's frame (the show/hide button of a password). */
  trailing?: ReactNode
}

export function TextField({ label, description, error, placeholder, trailing, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={Boolean(error)} validationBehavior="aria" className={`field ${typeof className === 'string' ? className : ''}`}>
      <Label className="field-label">{label}</Label>
      <div className="field-frame">
        <Input className="field-input" placeholder={placeholder} />
        {trailing}
      </div>
      <FieldHelp description={description} error={error} />
    </AriaTextField>
  )
}
