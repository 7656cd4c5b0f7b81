import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/inbox.css'
import '../../styles/internal-chat.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { ChatsPage } from '../../features/internal-chat/chats-page.tsx'

// The plan gate (useInternalChat): an error toast and / after 1 s otherwise.
void mountPrivatePage(
  <AppLayout>
    <PageGate feature="useInternalChat">
      <ChatsPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
