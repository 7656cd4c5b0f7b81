import '../../styles/index.css'
import '../../styles/admin.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { FinancePage } from '../../features/billing/finance-page.tsx'

// The company's admins pay its invoices; the API refuses anyone else.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <FinancePage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
