import '../../styles/index.css'
import { AppLayout } from '../../components/layout/app-layout.tsx'
import { mountPrivatePage } from '../../components/mount-page.tsx'
import { PageLoading } from '../../components/page-loading.tsx'
import { NoTicketSelected } from './no-ticket-selected.tsx'

void mountPrivatePage(
  <AppLayout>
    <NoTicketSelected />
  </AppLayout>,
  <PageLoading />,
)
