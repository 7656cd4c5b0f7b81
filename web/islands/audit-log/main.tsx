import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/users.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { AuditLogPage } from '../../features/audit-log/audit-log-page.tsx'

// Admins read their company's audit log, super users every company's; the API refuses anyone else.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <AuditLogPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
