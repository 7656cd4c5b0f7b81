// A modal dialog: focus moves in and is trapped, Escape and the close button dismiss it, a heading names it.
import type { ReactNode } from 'react'
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components'

export type DialogProps = {
  title: string
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  children: ReactNode
  /** 'large' for forms with many fields or tabs (connections, queues, plans). */
  size?: 'normal' | 'large'
}

export function Dialog({ title, isOpen, onOpenChange, children, size = 'normal' }: DialogProps) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable>
      <Modal className={size === 'large' ? 'modal modal-large' : 'modal'}>
        <AriaDialog className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  )
}
