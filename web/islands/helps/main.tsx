import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { HelpsPage } from '../../features/helps/helps-page.tsx'

void mountPrivatePage(
  <AppLayout>
    <HelpsPage />
  </AppLayout>,
  <PageLoading />,
)
