import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/settings.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { SettingsPage } from '../../features/settings/settings-page.tsx'

// §6: the settings are the admins'; the companies, plans and helps tabs inside are for super users only.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <SettingsPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
