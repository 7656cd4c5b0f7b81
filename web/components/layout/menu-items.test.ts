// The side menu's gates (§2 Side menu): profile, super flag, plan features, the campaigns rule, and
// only pages that exist.
import { plugin } from 'bun'
import { describe, expect, test } from 'bun:test'
import { linguiMacroPlugin } from '../../lingui-plugin.ts'
import type { PlanFeatures } from '../../state/session.ts'

// The items' labels are Lingui macros: compiled on load, as in the build.
plugin(linguiMacroPlugin({ descriptorFields: 'message' }))
const { menuItems, shortLabel, visibleMenuItems } = await import('./menu-items.ts')

const noFeatures: PlanFeatures = { useCampaigns: false, useKanban: false, useOpenAi: false, useIntegrations: false, useSchedules: false, useInternalChat: false, useExternalApi: false }
const allFeatures: PlanFeatures = { useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true }
const everyPage = () => true
const agent = { profile: 'user' as const, super: false }
const admin = { profile: 'admin' as const, super: false }
const superUser = { profile: 'admin' as const, super: true }
const paths = (items: { path: string }[]) => items.map((item) => item.path)

describe('side menu gates', () => {
  test('an agent without plan features sees the everyday pages only', () => {
    expect(paths(visibleMenuItems({ user: agent, features: noFeatures, campaignsFlag: false, isAvailable: everyPage }))).toEqual([
      '/tickets',
      '/quick-messages',
      '/contacts',
      '/tags',
      '/todolist',
      '/helps',
    ])
  })

  test('plan features open kanban, schedules and internal chat to agents; admin items stay closed', () => {
    const visible = paths(visibleMenuItems({ user: agent, features: allFeatures, campaignsFlag: false, isAvailable: everyPage }))
    expect(visible).toContain('/kanban')
    expect(visible).toContain('/schedules')
    expect(visible).toContain('/chats')
    expect(visible).not.toContain('/')
    expect(visible).not.toContain('/prompts')
  })

  test('admins get the dashboard and the admin section; plan-gated admin items need their feature', () => {
    const visible = paths(visibleMenuItems({ user: admin, features: noFeatures, campaignsFlag: false, isAvailable: everyPage }))
    expect(visible).toContain('/')
    expect(visible).toContain('/connections')
    expect(visible).toContain('/users')
    for (const gated of ['/prompts', '/queue-integration', '/messages-api', '/campaigns', '/announcements', '/kanban']) expect(visible).not.toContain(gated)
    const withPlan = paths(visibleMenuItems({ user: admin, features: allFeatures, campaignsFlag: false, isAvailable: everyPage }))
    for (const gated of ['/prompts', '/queue-integration', '/messages-api', '/campaigns', '/contact-lists', '/campaigns-config']) expect(withPlan).toContain(gated)
    expect(withPlan).not.toContain('/announcements')
  })

  test("campaigns show with the plan's campaigns or the local 'cshow' flag; announcements only for super users", () => {
    expect(paths(visibleMenuItems({ user: admin, features: noFeatures, campaignsFlag: true, isAvailable: everyPage }))).toContain('/campaigns')
    expect(paths(visibleMenuItems({ user: superUser, features: noFeatures, campaignsFlag: false, isAvailable: everyPage }))).toContain('/announcements')
  })

  test('only pages the server serves are listed; while the plan loads, feature items wait', () => {
    expect(paths(visibleMenuItems({ user: superUser, features: allFeatures, campaignsFlag: true, isAvailable: (path) => path === '/tickets' }))).toEqual(['/tickets'])
    expect(paths(visibleMenuItems({ user: admin, features: null, campaignsFlag: false, isAvailable: everyPage }))).not.toContain('/kanban')
  })

  test('every private route of §2 with a menu entry is listed once', () => {
    expect(new Set(paths([...menuItems])).size).toBe(menuItems.length)
  })

  test('names in the temporary drawer are cut to 10 characters plus an ellipsis', () => {
    expect(shortLabel('Atendimentos')).toBe('Atendiment…')
    expect(shortLabel('Tickets')).toBe('Tickets')
    expect(shortLabel('Conexiones')).toBe('Conexiones')
  })
})
