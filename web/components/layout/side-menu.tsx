// The drawer's navigation: the menu items this user may open, the admin section, the version.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { isPageAvailable } from '../../routes.ts'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { readStored } from '../../state/storage.ts'
import { shortLabel, visibleMenuItems, type MenuItem } from './menu-items.ts'
import { useConnectionsWarning } from './connections-warning.ts'

export type SideMenuProps = {
  /** Collapsed permanent drawer: icons only, names kept for assistive technology. */
  compact?: boolean
  /** Temporary drawer below 600 px: names cut to 10 characters (§2). */
  short?: boolean
  version: string | null
}

function isCurrent(path: string): boolean {
  const current = location.pathname
  return current === path || (path !== '/' && current.startsWith(`${path}/`))
}

export function SideMenu({ compact = false, short = false, version }: SideMenuProps) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const features = useAtomValue(planFeaturesAtom)
  const connectionsWarning = useConnectionsWarning()
  if (!user) return null
  const items = visibleMenuItems({ user, features, campaignsFlag: readStored('cshow') !== null, isAvailable: isPageAvailable })

  const link = (item: MenuItem) => {
    const label = i18n._(item.label)
    const shown = short ? shortLabel(label) : label
    const Icon = item.icon
    return (
      <li key={item.path}>
        <a
          href={item.path}
          className="menu-link"
          aria-current={isCurrent(item.path) ? 'page' : undefined}
          aria-label={compact || shown !== label ? label : undefined}
          title={compact || shown !== label ? label : undefined}
        >
          <Icon className="menu-link-icon" />
          <span className={compact ? 'visually-hidden' : 'menu-link-label'}>{shown}</span>
          {item.path === '/connections' && connectionsWarning ? (
            <span className="menu-badge" role="img" aria-label={t`A connection needs attention`}>
              !
            </span>
          ) : null}
        </a>
      </li>
    )
  }

  const main = items.filter((item) => item.section === 'main')
  const admin = items.filter((item) => item.section === 'admin')
  return (
    <nav className="side-menu" aria-label={t`Main menu`}>
      <ul className="menu-list">{main.map(link)}</ul>
      {admin.length > 0 ? (
        <>
          <h2 className={compact ? 'visually-hidden' : 'menu-section'}>{t`Administration`}</h2>
          <ul className="menu-list">{admin.map(link)}</ul>
        </>
      ) : null}
      {version ? <p className={compact ? 'menu-version menu-version-compact' : 'menu-version'}>{compact ? `v${version}` : t`Version ${version}`}</p> : null}
    </nav>
  )
}
