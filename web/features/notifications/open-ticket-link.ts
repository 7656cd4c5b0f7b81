// Opens a ticket from anywhere in the shell: within the inbox without a reload (its selection follows
// history, see features/inbox/selection.ts), from another page by loading the inbox on that ticket.
export function openTicketPage(uuid: string): void {
  const path = `/tickets/${encodeURIComponent(uuid)}`
  if (location.pathname === '/tickets' || location.pathname.startsWith('/tickets/')) {
    history.pushState(null, '', path)
    window.dispatchEvent(new PopStateEvent('popstate'))
  } else {
    location.assign(path)
  }
}
