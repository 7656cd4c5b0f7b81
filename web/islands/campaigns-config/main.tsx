import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/campaigns.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { CampaignsConfigPage } from '../../features/campaigns/campaigns-config-page.tsx'

// §6: the admin section's page, for a plan with useCampaigns (the server refuses the API otherwise too).
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <PageGate feature="useCampaigns">
        <CampaignsConfigPage />
      </PageGate>
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
