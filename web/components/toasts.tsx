// Toasts (§8, §9): one queue for the page, a live region that announces them, auto-close after 3 s
// (warnings and errors stay longer to be read). A flash toast survives the navigation to the next page.
import { useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components'
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from './icons.tsx'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'
export type ToastMessage = { kind: ToastKind; text: string }

const timeouts: Record<ToastKind, number> = { success: 3000, info: 3000, warning: 6000, error: 6000 }
const FLASH_KEY = 'flashToast'

export const toastQueue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 4 })

export function showToast(kind: ToastKind, text: string): void {
  toastQueue.add({ kind, text }, { timeout: timeouts[kind] })
}

/** A toast for the page the browser is about to open (signup -> login, reset -> login, forced logout). */
export function flashToast(kind: ToastKind, text: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ kind, text }))
  } catch {
    showToast(kind, text)
  }
}

function takeFlashToast(): ToastMessage | undefined {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY)
    sessionStorage.removeItem(FLASH_KEY)
    const parsed = raw ? (JSON.parse(raw) as Partial<ToastMessage>) : undefined
    if (parsed && typeof parsed.text === 'string' && parsed.kind && parsed.kind in timeouts) return { kind: parsed.kind, text: parsed.text }
  } catch {
    // No storage: nothing was flashed.
  }
  return undefined
}

const kindIcons = { success: CheckIcon, error: AlertIcon, warning: AlertIcon, info: InfoIcon }

export function Toasts() {
  const { t } = useLingui()
  useEffect(() => {
    const flashed = takeFlashToast()
    if (flashed) showToast(flashed.kind, flashed.text)
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
