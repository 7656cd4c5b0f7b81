// Buttons on react-aria's Button: keyboard and press handling, visible focus ring (styles/controls.css).
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

export type ButtonProps = AriaButtonProps & { variant?: ButtonVariant; icon?: boolean }

export function Button({ variant = 'primary', icon = false, className, ...props }: ButtonProps) {
  const classes = ['button', `button-${variant}`, icon ? 'button-icon' : '', typeof className === 'string' ? className : ''].filter(Boolean).join(' ')
  return <AriaButton {...props} className={classes} />
}
