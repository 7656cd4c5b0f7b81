import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/messages-api.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { MessagesApiPage } from '../../features/messages-api/messages-api-page.tsx'

// §6: an admin section page (connection tokens are the admins'), and only for a plan with
// useExternalApi (an error toast and / after 1 s otherwise). Two gates, each refusal with its reason.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <PageGate feature="useExternalApi">
        <MessagesApiPage />
      </PageGate>
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
