// Icons only the ticket panel uses (same 24 px line style as components/icons.tsx).
import { icon } from '../../components/icons.tsx'

const svg = (path: string) => icon(<path d={path} />)

export const TransferIcon = svg('M17 3l4 4-4 4M21 7H9M7 21l-4-4 4-4M3 17h12')
export const ReturnIcon = svg('M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3')
export const ReopenIcon = svg('M1 4v6h6M3.5 15a9 9 0 1 0 2.1-9.4L1 10')
export const ContactCardIcon = svg('M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8')
export const PlusIcon = svg('M12 5v14M5 12h14')
export const EditIcon = svg('M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z')
