// An on/off field (react-aria Switch: a checkbox with role="switch", Space toggles it) for the admin
// lists' dialogs: the tag's kanban lane, the quick message's "shared with the company".
import type { ReactNode } from 'react'
import { Switch } from 'react-aria-components'

export type SwitchFieldProps = { isSelected: boolean; onChange: (isSelected: boolean) => void; children: ReactNode; description?: string; isDisabled?: boolean }

export function SwitchField({ isSelected, onChange, children, description, isDisabled }: SwitchFieldProps) {
  return (
    <div className="switch-field">
      <Switch className="switch" isSelected={isSelected} onChange={onChange} isDisabled={isDisabled}>
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">{children}</span>
      </Switch>
      {description ? <p className="field-description">{description}</p> : null}
    </div>
  )
}
