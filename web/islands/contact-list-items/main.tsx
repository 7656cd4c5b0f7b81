import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/contacts.css'
import '../../styles/contact-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { ContactListItemsPage } from '../../features/contact-lists/items-page.tsx'
import { contactListIdOf } from '../../features/contact-lists/rows.ts'

// The server serves this island only for /contact-lists/<id>/contacts; an id it cannot read goes back to the lists.
const contactListId = contactListIdOf(location.pathname)
if (contactListId === null) location.replace('/contact-lists')
else
  void mountPrivatePage(
    <AppLayout>
      <PageGate admin>
        <PageGate feature="useCampaigns">
          <ContactListItemsPage contactListId={contactListId} />
        </PageGate>
      </PageGate>
    </AppLayout>,
    <PageLoading />,
  )
