// The line under a field: its description, or its error once there is one (react-aria links both to
// the field through the field's context, so assistive technology reads them with it).
import type { ReactNode } from 'react'
import { FieldError, Text } from 'react-aria-components'

export function FieldHelp({ description, error }: { description?: ReactNode; error?: string }) {
  return (
    <>
      {description && !error ? (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      ) : null}
      <FieldError className="field-error">{error}</FieldError>
    </>
  )
}
