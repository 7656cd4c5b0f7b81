import '../../styles/index.css'
import '../../styles/admin.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { SubscriptionPage } from '../../features/billing/subscription-page.tsx'

void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <SubscriptionPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
