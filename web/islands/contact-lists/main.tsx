import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/contact-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { ContactListsPage } from '../../features/contact-lists/contact-lists-page.tsx'

// §2 and §6: a page of the campaigns section (admins), for a plan with useCampaigns. The local 'cshow'
// flag shows the menu item (side menu); the plan decides, here and in the API, whether the page opens.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <PageGate feature="useCampaigns">
        <ContactListsPage />
      </PageGate>
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
