import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/contacts.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { ContactsPage } from '../../features/contacts/contacts-page.tsx'

// No admin gate: every user works with the contacts (§2); only deleting is for admins (§6), and the
// page hides that button from the others, as the API refuses it.
void mountPrivatePage(
  <AppLayout>
    <ContactsPage />
  </AppLayout>,
  <PageLoading />,
)
