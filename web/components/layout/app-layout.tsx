// The private shell (§2 Side menu, Main layout): top bar, a 240 px drawer open by default above
// 1200 px, collapsible to icons between 600 and 1200 px, and a temporary (modal) drawer below 600 px.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState, type ReactNode } from 'react'
import { lazyPart } from '../lazy-part.tsx'
import { useRealtimeConnection } from './realtime-connection.ts'
import { usePlanFeatures, useVersion } from './session-data.ts'
import { PayOnlyLayout } from './pay-only-layout.tsx'
import { payOnlyAtom } from '../../state/session.ts'
import { SideMenu } from './side-menu.tsx'
import { TopBar } from './top-bar.tsx'
import { useViewportWidth } from './use-viewport-width.ts'

// Only phone-sized windows render the modal drawer: its chunk is fetched there, right after the first render.
const TemporaryDrawer = lazyPart(() => import('./temporary-drawer.tsx').then((module) => module.TemporaryDrawer))

export const OPEN_DRAWER_ABOVE = 1200
export const TEMPORARY_DRAWER_BELOW = 600
const DRAWER_ID = 'app-drawer'

export function AppLayout({ children }: { children: ReactNode }) {
  const payOnly = useAtomValue(payOnlyAtom)
  return payOnly ? <PayOnlyLayout>{children}</PayOnlyLayout> : <FullLayout>{children}</FullLayout>
}

function FullLayout({ children }: { children: ReactNode }) {
  const { t } = useLingui()
  const width = useViewportWidth()
  const temporary = width < TEMPORARY_DRAWER_BELOW
  const [open, setOpen] = useState(() => window.innerWidth > OPEN_DRAWER_ABOVE)
  useRealtimeConnection()
  usePlanFeatures()
  const version = useVersion()

  // Shrinking into the phone layout closes the drawer; it opens on demand as an overlay.
  useEffect(() => {
    if (temporary) setOpen(false)
  }, [temporary])

  return (
    <div className="app" data-drawer={temporary ? 'temporary' : open ? 'open' : 'collapsed'}>
      <a className="skip-link" href="#main">
        {t`Skip to content`}
      </a>
      <TopBar menuOpen={open} onToggleMenu={() => setOpen(!open)} drawerId={DRAWER_ID} />
      {temporary ? (
        <TemporaryDrawer id={DRAWER_ID} isOpen={open} onOpenChange={setOpen} version={version} />
      ) : (
        <aside className="drawer drawer-permanent" id={DRAWER_ID} data-open={open || undefined}>
          <SideMenu compact={!open} version={version} />
        </aside>
      )}
      <main className="app-main" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  )
}
