// The frame of the public pages: the language menu at the top, a centred card with the logo.
import type { ReactNode } from 'react'
import { LanguageMenu } from './language-menu.tsx'
import { Logo } from './logo.tsx'

export function AuthLayout({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-topbar">
        <LanguageMenu />
      </header>
      <main className="auth-main">
        <div className="auth-card">
          <Logo size={44} />
          <h1 className="auth-title">{title}</h1>
          {children}
        </div>
        {footer ? <nav className="auth-links">{footer}</nav> : null}
      </main>
    </div>
  )
}
