// The modal frame of dialog.tsx, in a chunk of its own: react-aria-components' Modal and Dialog share
// their modules with Menu and Popover (they import each other), so a page that imported them for its
// first render took all of these (~35 KB brotli) before painting.
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import type { DialogProps } from './dialog.tsx'

export function DialogFrame({ title, isOpen, onOpenChange, children, size = 'normal' }: DialogProps) {
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
