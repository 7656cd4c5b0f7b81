import '../../styles/index.css'
import '../../styles/admin.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { WebhooksPage } from '../../features/webhooks/webhooks-page.tsx'

// Admins manage their company's webhooks; the API refuses anyone else too.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <WebhooksPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
