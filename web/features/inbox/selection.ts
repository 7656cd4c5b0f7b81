// Which ticket is open: the uuid in /tickets/:uuid. Opening one pushes a history entry, so the browser's
// Back button returns to the previous ticket (or to the list on a narrow screen).
import { atom, useSetAtom } from 'jotai'
import { useEffect } from 'react'

export const TICKETS_PATH = '/tickets'

export function ticketUuidFromPath(pathname: string): string | null {
  const match = /^\/tickets\/([^/]+)\/?$/.exec(pathname)
  return match ? decodeURIComponent(match[1]!) : null
}

export const selectedTicketUuidAtom = atom<string | null>(ticketUuidFromPath(location.pathname))

/** Opens a ticket by uuid (null closes it) and records it in the address bar. */
export const openTicketAtom = atom(null, (get, set, uuid: string | null) => {
  if (get(selectedTicketUuidAtom) === uuid) return
  history.pushState(null, '', uuid ? `${TICKETS_PATH}/${encodeURIComponent(uuid)}` : TICKETS_PATH)
  set(selectedTicketUuidAtom, uuid)
})

/** Keeps the selection in step with Back and Forward. */
export function useSelectionFollowsHistory(): void {
  const setSelected = useSetAtom(selectedTicketUuidAtom)
  useEffect(() => {
    const follow = () => setSelected(ticketUuidFromPath(location.pathname))
    window.addEventListener('popstate', follow)
    return () => window.removeEventListener('popstate', follow)
  }, [setSelected])
}
