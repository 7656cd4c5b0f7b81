import '../../styles/index.css'
import '../../styles/admin.css'
import '../../styles/admin-lists.css'
import '../../styles/prompts.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { PageGate } from '../../components/layout/page-gate.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { PromptsPage } from '../../features/prompts/prompts-page.tsx'

// §6: the admin section's page, and only for a plan with useOpenAi (an error toast and / after 1 s
// otherwise). Two gates, so that each refusal says its own reason: the user's role, then the plan.
void mountPrivatePage(
  <AppLayout>
    <PageGate admin>
      <PageGate feature="useOpenAi">
        <PromptsPage />
      </PageGate>
    </PageGate>
  </AppLayout>,
  <PageLoading />,
)
