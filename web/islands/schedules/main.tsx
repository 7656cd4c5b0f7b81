import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/schedules.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { SchedulesPage } from '../../features/schedules/schedules-page.tsx'

void mountPrivatePage(
  <AppLayout>
    <PageGate feature="useSchedules">
      <SchedulesPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
