import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/queue-integrations.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { QueueIntegrationsPage } from '../../features/queue-integrations/queue-integrations-page.tsx'

// §6: admins of a plan with useIntegrations; anyone else gets an error toast and goes to / after 1 s.
// Two gates, so that each refusal says its own reason (a gate with both words it as the plan's).
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <PageGate feature="useIntegrations">
        <QueueIntegrationsPage />
      </PageGate>
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
