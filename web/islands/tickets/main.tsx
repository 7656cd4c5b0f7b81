import '../../styles/index.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { InboxPage } from '../../features/inbox/inbox-page.tsx'

void mountPrivatePage(
  <AppLayout>
    <InboxPage />
  </AppLayout>,
  <PageLoading />,
)
