// The shell of a pay-only session (an overdue company's admin, signed in to pay): no menu and none of
// the top bar's live popovers (their calls would be refused), only why, the two pay pages and the
// way out. The socket stays: it carries the payment's confirmation (CONCLUIDA).
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button } from '../button.tsx'
import { LanguageMenu } from '../language-menu.tsx'
import { LogoutIcon } from '../icons.tsx'
import { Logo } from '../logo.tsx'
import { useRealtimeConnection } from './realtime-connection.ts'
import { ThemeToggle } from './theme-toggle.tsx'
import { logout } from './user-menu.tsx'

export function PayOnlyLayout({ children }: { children: ReactNode }) {
  const { t } = useLingui()
  useRealtimeConnection()
  const here = location.pathname
  return (
    <div className="app app-pay-only" data-drawer="temporary">
      <a className="skip-link" href="#main">
        {t`Skip to content`}
      </a>
      <header className="topbar">
        <Logo size={32} />
        <nav className="pay-only-nav" aria-label={t`Billing`}>
          <a href="/financeiro" aria-current={here === '/financeiro' ? 'page' : undefined}>
            {t`Invoices`}
          </a>
          <a href="/subscription" aria-current={here === '/subscription' ? 'page' : undefined}>
            {t`Subscription`}
          </a>
        </nav>
        <div className="topbar-actions">
          <LanguageMenu compact />
          <ThemeToggle />
          <Button variant="ghost" onPress={() => void logout()}>
            <LogoutIcon />
            {t`Log out`}
          </Button>
        </div>
      </header>
      <main className="app-main" id="main" tabIndex={-1}>
        <p className="form-alert pay-only-note" role="status">
          {t`Your subscription has expired: the system opens again once an invoice is paid.`}
        </p>
        {children}
      </main>
    </div>
  )
}
