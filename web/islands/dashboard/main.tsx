import '../../styles/index.css'
import '../../styles/admin.css'
import { useAtomValue } from 'jotai'
import { useEffect } from 'react'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { DashboardPage } from '../../features/dashboard/dashboard-page.tsx'
import { HOME_PATH } from '../../routes.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'

/**
 * "/" is the admins' dashboard (§2). Everyone else lands on the inbox without a refusal toast: the
 * role gates of other pages send a refused user to "/", and this is where that ends.
 */
function Home() {
  const user = useAtomValue(sessionUserAtom)
  const elsewhere = user !== null && !isAdmin(user)
  useEffect(() => {
    if (elsewhere) location.replace(HOME_PATH)
  }, [elsewhere])
  if (elsewhere) return <PageLoading />
  return (
    <PageGate admin>
      <DashboardPage />
    </PageGate>
  )
}

void mountPrivatePage(
  <AppLayout>
    <Home />
  </AppLayout>,
  <PageLoading />,
)
