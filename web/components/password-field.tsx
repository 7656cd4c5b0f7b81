// A password input with a show/hide toggle (§2 /forgetpsw) that keeps its own accessible name.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ToggleButton } from './toggle-button.tsx'
import { EyeIcon, EyeOffIcon } from './icons.tsx'
import { TextField, type TextFieldProps } from './text-field.tsx'

export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const { t } = useLingui()
  const [visible, setVisible] = useState(false)
  const toggleLabel = t`Show password`
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <ToggleButton className="field-toggle" isSelected={visible} onChange={setVisible} aria-label={toggleLabel}>
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </ToggleButton>
      }
    />
  )
}
