// The temporary (modal) drawer of a phone-sized window (app-layout.tsx), in a chunk of its own: wider
// windows never load it.
import { useLingui } from '@lingui/react/macro'
import { Dialog, Modal, ModalOverlay } from 'react-aria-components'
import { Button } from '../button.tsx'
import { CloseIcon } from '../icons.tsx'
import { Logo } from '../logo.tsx'
import { SideMenu } from './side-menu.tsx'

export type TemporaryDrawerProps = { id: string; isOpen: boolean; onOpenChange: (isOpen: boolean) => void; version: string | null }

export function TemporaryDrawer({ id, isOpen, onOpenChange, version }: TemporaryDrawerProps) {
  const { t } = useLingui()
  return (
    <ModalOverlay className="drawer-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable>
      <Modal className="drawer drawer-temporary">
        <Dialog className="drawer-dialog" id={id} aria-label={t`Menu`}>
          <div className="drawer-header">
            <Logo size={32} />
            <Button variant="ghost" icon slot="close" aria-label={t`Close menu`}>
              <CloseIcon />
            </Button>
          </div>
          <SideMenu short version={version} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
