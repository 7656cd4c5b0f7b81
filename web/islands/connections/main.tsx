import '../../styles/index.css'
import '../../styles/admin.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { ConnectionsPage } from '../../features/connections/connections-page.tsx'

// No admin gate on the page itself: §6 gates its add, session and edit/delete buttons, so an agent who
// opens /connections sees the table (read-only) and the statuses, as the API lets him.
void mountPrivatePage(
  <AppLayout>
    <ConnectionsPage />
  </AppLayout>,
  <PageLoading />,
)
