import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { TagsPage } from '../../features/tags/tags-page.tsx'

void mountPrivatePage(
  <AppLayout>
    <TagsPage />
  </AppLayout>,
  <PageLoading />,
)
