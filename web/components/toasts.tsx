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
/** A toast may lead somewhere (the login's subscription warning links to /subscription). */
export type ToastLink = { href: string; label: string }
export type ToastMessage = { kind: ToastKind; text: string; link?: ToastLink }

const timeouts: Record<ToastKind, number> = { success: 3000, info: 3000, warning: 6000, error: 6000 }
const FLASH_KEY = 'flashToast'

export const toastQueue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 4 })

export function showToast(kind: ToastKind, text: string, link?: ToastLink): void {
  toastQueue.add(link ? { kind, text, link } : { kind, text }, { timeout: timeouts[kind] })
}

/** A toast for the page the browser is about to open (signup -> login, reset -> login, forced logout). */
export function flashToast(kind: ToastKind, text: string, link?: ToastLink): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ kind, text, link }))
  } catch {
    showToast(kind, text, link)
  }
}

function takeFlashToast(): ToastMessage | undefined {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY)
    sessionStorage.removeItem(FLASH_KEY)
    const parsed = raw ? (JSON.parse(raw) as Partial<ToastMessage>) : undefined
    if (parsed && typeof parsed.text === 'string' && parsed.kind && parsed.kind in timeouts) {
      // Only a link to one of our own pages: the storage is the page's, but a path is all a toast needs.
      const link = parsed.link && typeof parsed.link.href === 'string' && parsed.link.href.startsWith('/') && !parsed.link.href.startsWith('//') && typeof parsed.link.label === 'string' ? parsed.link : undefined
      return { kind: parsed.kind, text: parsed.text, link }
    }
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
