// Starts an island: activates the stored language, then renders. Public pages send a signed-in
// visitor on to the app (§2); private pages restore the session from the refresh cookie first and
// send a visitor without one to /login.
import { getDefaultStore } from 'jotai'
import { StrictMode, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { restoreSession } from '../api/session.ts'
import { activateLanguage } from '../i18n/activate.ts'
import { HOME_PATH, isPayOnlyPath, LOGIN_PATH, PAY_PATH } from '../routes.ts'
import { payOnlyAtom } from '../state/session.ts'
import { languageAtom } from '../state/language.ts'
import { Providers } from './providers.tsx'

function rootElement(): Root {
  const element = document.getElementById('root')
  if (!element) throw new Error('the page has no #root element')
  return createRoot(element)
}

function render(root: Root, page: ReactNode): void {
  root.render(
    <StrictMode>
      <Providers>{page}</Providers>
    </StrictMode>,
  )
}

export async function mountPublicPage(page: ReactNode): Promise<void> {
  await activateLanguage(getDefaultStore().get(languageAtom))
  render(rootElement(), page)
  if (await restoreSession()) location.replace(getDefaultStore().get(payOnlyAtom) ? PAY_PATH : HOME_PATH)
}

export async function mountPrivatePage(page: ReactNode, loading: ReactNode): Promise<void> {
  await activateLanguage(getDefaultStore().get(languageAtom))
  const root = rootElement()
  render(root, loading)
  if (!(await restoreSession())) {
    location.replace(LOGIN_PATH)
    return
  }
  // A pay-only session opens the pay pages only, until the company is renewed.
  if (getDefaultStore().get(payOnlyAtom) && !isPayOnlyPath(location.pathname)) {
    location.replace(PAY_PATH)
    return
  }
  render(root, page)
}
