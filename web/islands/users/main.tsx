import '../../styles/index.css'
import '../../styles/admin.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { UsersPage } from '../../features/users/users-page.tsx'

// §6: users are managed by admins; the API refuses the list and every write to anyone else.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <UsersPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
