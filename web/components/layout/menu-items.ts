// The side menu of §2, complete, with its gates: profile (admin), super flag, plan features, and the
// campaigns rule (plan allows campaigns, or the local 'cshow' flag). An item shows only when its page
// is served (web/routes.ts), so pages not built yet never appear as broken links.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { PlanFeature } from '../../../src/core/tenant.ts'
import type { PlanFeatures, SessionUser } from '../../state/session.ts'
import {
  AuditIcon,
  AnnouncementIcon,
  ApiIcon,
  CampaignIcon,
  ChatIcon,
  ConnectionIcon,
  ContactsIcon,
  DashboardIcon,
  FilesIcon,
  HelpIcon,
  IntegrationIcon,
  KanbanIcon,
  ListIcon,
  MoneyIcon,
  PromptIcon,
  QueueIcon,
  QuickMessageIcon,
  ScheduleIcon,
  SettingsIcon,
  TagIcon,
  TicketsIcon,
  TodoIcon,
  UsersIcon,
  type IconComponent,
} from '../icons.tsx'
import { isAdmin } from '../../../src/contracts/roles.ts'

export type MenuGate = {
  admin?: boolean
  super?: boolean
  feature?: PlanFeature
  /** §2: the plan allows campaigns, or the browser has the 'cshow' flag. */
  campaigns?: boolean
}

export type MenuSection = 'main' | 'admin'

export type MenuItem = { path: string; label: MessageDescriptor; icon: IconComponent; section: MenuSection; gate?: MenuGate }

export const menuItems: readonly MenuItem[] = [
  { path: '/', label: msg`Dashboard`, icon: DashboardIcon, section: 'main', gate: { admin: true } },
  { path: '/tickets', label: msg`Tickets`, icon: TicketsIcon, section: 'main' },
  { path: '/quick-messages', label: msg`Quick replies`, icon: QuickMessageIcon, section: 'main' },
  { path: '/kanban', label: msg`Kanban`, icon: KanbanIcon, section: 'main', gate: { feature: 'useKanban' } },
  { path: '/contacts', label: msg`Contacts`, icon: ContactsIcon, section: 'main' },
  { path: '/schedules', label: msg`Schedules`, icon: ScheduleIcon, section: 'main', gate: { feature: 'useSchedules' } },
  { path: '/tags', label: msg`Tags`, icon: TagIcon, section: 'main' },
  { path: '/chats', label: msg`Internal chat`, icon: ChatIcon, section: 'main', gate: { feature: 'useInternalChat' } },
  { path: '/todolist', label: msg`To-do list`, icon: TodoIcon, section: 'main' },
  { path: '/helps', label: msg`Help`, icon: HelpIcon, section: 'main' },
  { path: '/campaigns', label: msg`Campaigns`, icon: CampaignIcon, section: 'admin', gate: { admin: true, campaigns: true } },
  { path: '/contact-lists', label: msg`Contact lists`, icon: ListIcon, section: 'admin', gate: { admin: true, campaigns: true } },
  { path: '/campaigns-config', label: msg`Campaign settings`, icon: SettingsIcon, section: 'admin', gate: { admin: true, campaigns: true } },
  { path: '/announcements', label: msg`Announcements`, icon: AnnouncementIcon, section: 'admin', gate: { admin: true, super: true } },
  { path: '/prompts', label: msg`Prompts`, icon: PromptIcon, section: 'admin', gate: { admin: true, feature: 'useOpenAi' } },
  { path: '/queue-integration', label: msg`Integrations`, icon: IntegrationIcon, section: 'admin', gate: { admin: true, feature: 'useIntegrations' } },
  { path: '/connections', label: msg`Connections`, icon: ConnectionIcon, section: 'admin', gate: { admin: true } },
  { path: '/files', label: msg`File lists`, icon: FilesIcon, section: 'admin', gate: { admin: true } },
  { path: '/queues', label: msg`Queues & chatbot`, icon: QueueIcon, section: 'admin', gate: { admin: true } },
  { path: '/users', label: msg`Users`, icon: UsersIcon, section: 'admin', gate: { admin: true } },
  { path: '/messages-api', label: msg`API`, icon: ApiIcon, section: 'admin', gate: { admin: true, feature: 'useExternalApi' } },
  { path: '/financeiro', label: msg`Billing`, icon: MoneyIcon, section: 'admin', gate: { admin: true } },
  { path: '/settings', label: msg`Settings`, icon: SettingsIcon, section: 'admin', gate: { admin: true } },
  { path: '/audit-log', label: msg`Audit log`, icon: AuditIcon, section: 'admin', gate: { admin: true } },
  { path: '/webhooks', label: msg`Webhooks`, icon: IntegrationIcon, section: 'admin', gate: { admin: true } },
]

export type MenuContext = {
  user: Pick<SessionUser, 'profile' | 'super'>
  /** null while the plan loads: feature-gated items wait for it. */
  features: PlanFeatures | null
  campaignsFlag: boolean
  isAvailable: (path: string) => boolean
}

export function isAllowed(gate: MenuGate | undefined, context: MenuContext): boolean {
  if (!gate) return true
  const admin = isAdmin(context.user)
  if (gate.admin && !admin) return false
  if (gate.super && !context.user.super) return false
  if (gate.feature && !context.features?.[gate.feature]) return false
  if (gate.campaigns && !(context.features?.useCampaigns || context.campaignsFlag)) return false
  return true
}

export function visibleMenuItems(context: MenuContext, items: readonly MenuItem[] = menuItems): MenuItem[] {
  return items.filter((item) => context.isAvailable(item.path) && isAllowed(item.gate, context))
}

/** §2: in the temporary drawer (below 600 px) names are cut to 10 characters plus an ellipsis. */
export function shortLabel(label: string, limit = 10): string {
  return label.length > limit ? `${label.slice(0, limit)}…` : label
}
