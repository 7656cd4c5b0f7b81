// The toast region (toasts.tsx), in a chunk of its own: the region, its landmark and live announcements
// are not first-load JS. It is rendered with every page, so it arrives right after the first render;
// toasts queued before that (a flashed one, an early error) show once it has.
import { useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components'
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from './icons.tsx'
import { showToast, takeFlashToast, toastQueue } from './toasts.tsx'

const kindIcons = { success: CheckIcon, error: AlertIcon, warning: AlertIcon, info: InfoIcon }

export function ToastRegionPart() {
  const { t } = useLingui()
  useEffect(() => {
    const flashed = takeFlashToast()
    if (flashed) showToast(flashed.kind, flashed.text, flashed.link)
  }, [])
  return (
    <ToastRegion queue={toastQueue} className="toast-region" aria-label={t`Notifications`}>
      {({ toast }) => {
        const KindIcon = kindIcons[toast.content.kind]
        return (
          <Toast toast={toast} className={`toast toast-${toast.content.kind}`}>
            <KindIcon className="toast-icon" />
            <ToastContent className="toast-content">
              <Text slot="title">{toast.content.text}</Text>
              {toast.content.link ? (
                <a className="toast-link" href={toast.content.link.href}>
                  {toast.content.link.label}
                </a>
              ) : null}
            </ToastContent>
            <Button slot="close" className="toast-close" aria-label={t`Close`}>
              <CloseIcon />
            </Button>
          </Toast>
        )
      }}
    </ToastRegion>
  )
}
