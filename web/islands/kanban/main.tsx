import '../../styles/index.css'
import '../../styles/ticket-list.css'
import '../../styles/kanban.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { KanbanPage } from '../../features/kanban/kanban-page.tsx'

// §6: every user of a plan with useKanban (an error toast and / after 1 s otherwise).
void mountPrivatePage(
  <AppLayout>
    <PageGate feature="useKanban">
      <KanbanPage />
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
