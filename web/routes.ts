// The pages the server serves and the island that renders each one. Shared by the server (which
// answers these paths with an HTML shell) and the client (which shows menu items only for pages
// that exist). A page of §2 that is not built yet is simply absent here: the server answers 404 and
// the side menu hides its item. Adding a page = one line here plus its island.

export const islandNames = ['login', 'signup', 'forgetpsw', 'tickets', 'tags', 'quick-messages', 'helps', 'todolist', 'connections', 'queues', 'schedules', 'users', 'settings', 'contacts', 'prompts', 'queue-integration', 'audit-log', 'chats', 'announcements', 'kanban', 'messages-api', 'contact-lists', 'contact-list-items', 'files', 'webhooks', 'financeiro', 'subscription', 'dashboard', 'campaigns', 'campaign-report', 'campaigns-config'] as const
export type IslandName = (typeof islandNames)[number]

export type PageRoute = {
  /** Elysia path syntax (`:param`). */
  path: string
  island: IslandName
  access: 'public' | 'private'
}

export const pageRoutes: readonly PageRoute[] = [
  { path: '/', island: 'dashboard', access: 'private' },
  { path: '/login', island: 'login', access: 'public' },
  { path: '/signup', island: 'signup', access: 'public' },
  { path: '/forgetpsw', island: 'forgetpsw', access: 'public' },
  { path: '/tickets', island: 'tickets', access: 'private' },
  { path: '/tickets/:ticketId', island: 'tickets', access: 'private' },
  { path: '/tags', island: 'tags', access: 'private' },
  { path: '/quick-messages', island: 'quick-messages', access: 'private' },
  { path: '/helps', island: 'helps', access: 'private' },
  { path: '/todolist', island: 'todolist', access: 'private' },
  { path: '/connections', island: 'connections', access: 'private' },
  { path: '/schedules', island: 'schedules', access: 'private' },
  { path: '/queues', island: 'queues', access: 'private' },
  { path: '/contacts', island: 'contacts', access: 'private' },
  { path: '/users', island: 'users', access: 'private' },
  { path: '/settings', island: 'settings', access: 'private' },
  { path: '/prompts', island: 'prompts', access: 'private' },
  { path: '/queue-integration', island: 'queue-integration', access: 'private' },
  { path: '/audit-log', island: 'audit-log', access: 'private' },
  { path: '/chats', island: 'chats', access: 'private' },
  { path: '/chats/:id', island: 'chats', access: 'private' },
  { path: '/announcements', island: 'announcements', access: 'private' },
  { path: '/kanban', island: 'kanban', access: 'private' },
  { path: '/messages-api', island: 'messages-api', access: 'private' },
  { path: '/contact-lists', island: 'contact-lists', access: 'private' },
  { path: '/contact-lists/:contactListId/contacts', island: 'contact-list-items', access: 'private' },
  { path: '/files', island: 'files', access: 'private' },
  { path: '/webhooks', island: 'webhooks', access: 'private' },
  { path: '/financeiro', island: 'financeiro', access: 'private' },
  { path: '/subscription', island: 'subscription', access: 'private' },
  { path: '/campaigns', island: 'campaigns', access: 'private' },
  { path: '/campaign/:campaignId/report', island: 'campaign-report', access: 'private' },
  { path: '/campaigns-config', island: 'campaigns-config', access: 'private' },
]

/** Where a signed-in user lands: after login and when opening a public page while signed in. */
export const HOME_PATH = '/tickets'
export const LOGIN_PATH = '/login'

/** Where a pay-only session (an overdue company's admin, signed in to pay) lands, and what it may open. */
export const PAY_PATH = '/financeiro'
const payOnlyPaths = new Set([PAY_PATH, '/subscription'])

export function isPayOnlyPath(path: string): boolean {
  return payOnlyPaths.has(path)
}

/** True when the server serves this menu path (its first segment matches a page route). */
export function isPageAvailable(path: string): boolean {
  return pageRoutes.some((route) => route.path === path)
}
