import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { AnnouncementsPage } from '../../features/announcements/announcements-page.tsx'

// §6: super users only; anyone else gets an info toast and is sent to / after 1 s.
void mountPrivatePage(
  <AppLayout>
    <PageGate super refusalTone="info">
      <AnnouncementsPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
