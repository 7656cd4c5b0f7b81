import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/queues.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { QueuesPage } from '../../features/queues/queues-page.tsx'

// §6: queues are configured by admins; the API refuses every write from anyone else.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <QueuesPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
