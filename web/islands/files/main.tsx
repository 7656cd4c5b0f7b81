import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/contacts.css'
import '../../styles/contact-lists.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { FileListsPage } from '../../features/file-lists/file-lists-page.tsx'

// §2: an admin section page (the API lets everyone read the lists, which the chat input offers).
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <FileListsPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
