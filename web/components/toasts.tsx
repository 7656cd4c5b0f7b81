// Toasts (§8, §9): one queue for the page, a live region that announces them, auto-close after 3 s
// (warnings and errors stay longer to be read). A flash toast survives the navigation to the next page.
// The queue is react-stately's (what react-aria-components re-exports as UNSTABLE_ToastQueue); the region
// that shows it (toast-region.tsx) is a chunk of its own.
import { ToastQueue } from 'react-stately/useToastState'
import { lazyPart } from './lazy-part.tsx'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'
/** A toast may lead somewhere (the login's subscription warning links to /subscription). */
export type ToastLink = { href: string; label: string }
export type ToastMessage = { kind: ToastKind; text: string; link?: ToastLink }

const timeouts: Record<ToastKind, number> = { success: 3000, info: 3000, warning: 6000, error: 6000 }
const FLASH_KEY = 'flashToast'
// Which page flashed a toast: the page that flashes it is about to leave, and its own toast region (a
// lazy chunk) may mount only now, after the sign-in answered; it must leave the toast to the next page.
const THIS_PAGE = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

export const toastQueue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 4 })

export function showToast(kind: ToastKind, text: string, link?: ToastLink): void {
  toastQueue.add(link ? { kind, text, link } : { kind, text }, { timeout: timeouts[kind] })
}

/** A toast for the page the browser is about to open (signup -> login, reset -> login, forced logout). */
export function flashToast(kind: ToastKind, text: string, link?: ToastLink): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ kind, text, link, from: THIS_PAGE }))
  } catch {
    showToast(kind, text, link)
  }
}

export function takeFlashToast(): ToastMessage | undefined {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY)
    const parsed = raw ? (JSON.parse(raw) as Partial<ToastMessage> & { from?: unknown }) : undefined
    if (parsed?.from === THIS_PAGE) return undefined
    sessionStorage.removeItem(FLASH_KEY)
    if (parsed && typeof parsed.text === 'string' && parsed.kind && parsed.kind in timeouts) {
      // Only a link to one of our own pages: the storage is the page's, but a path is all a toast needs.
      const link = parsed.link && typeof parsed.link.href === 'string' && parsed.link.href.startsWith('/') && !parsed.link.href.startsWith('//') && typeof parsed.link.label === 'string' ? parsed.link : undefined
      return { kind: parsed.kind, text: parsed.text, link }
    }
  } catch {
    // No storage, or not ours to read: nothing to show.
    try {
      sessionStorage.removeItem(FLASH_KEY)
    } catch {
      // No storage at all.
    }
  }
  return undefined
}

export const Toasts = lazyPart(() => import('./toast-region.tsx').then((module) => module.ToastRegionPart))
