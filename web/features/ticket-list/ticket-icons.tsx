// Icons of the list items that the shared set lacks (24 px grid, currentColor, decorative).
import { icon as lineIcon } from '../../components/icons.tsx'


export const BotIcon = lineIcon(
  <>
    <rect x="4" y="8" width="16" height="12" rx="2" />
    <path d="M12 4v4M9 13h.01M15 13h.01M9 17h6" />
  </>,
)
export const AcceptIcon = lineIcon(<path d="M20 6L9 17l-5-5" />)
export const CloseTicketIcon = lineIcon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M8 12l3 3 5-6" />
  </>,
)
export const ReopenIcon = lineIcon(<path d="M1 4v6h6M3.5 15a9 9 0 1 0 2.1-9.4L1 10" />)
export const PlusIcon = lineIcon(<path d="M12 5v14M5 12h14" />)
export const FilterIcon = lineIcon(<path d="M22 3H2l8 9.5V19l4 2v-8.5L22 3z" />)
export const SearchIcon = lineIcon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M21 21l-4.3-4.3" />
  </>,
)
