// Icons of the chat only, in the style of components/icons.tsx (24 px grid, currentColor, decorative).
import { icon } from '../../components/icons.tsx'


export const FileIcon = icon(<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6" />)
export const MapPinIcon = icon(<path d="M12 22s7-6.1 7-12a7 7 0 0 0-14 0c0 5.9 7 12 7 12zM12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" />)
export const ContactCardIcon = icon(<path d="M3 5h18v14H3zM9 13a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM5.5 17a3.5 3.5 0 0 1 7 0M15 9h3M15 13h3" />)
export const PhoneIcon = icon(<path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />)
export const MoreIcon = icon(<path d="M12 5h.01M12 12h.01M12 19h.01" strokeWidth={3} />)
export const ReplyIcon = icon(<path d="M9 17l-5-5 5-5M4 12h11a5 5 0 0 1 5 5v2" />)
export const TrashIcon = icon(<path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />)
export const ClockIcon = icon(<path d="M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 6v6l4 2" />)
export const SingleCheckIcon = icon(<path d="M20 6L9 17l-5-5" />)
export const DoubleCheckIcon = icon(<path d="M2 12.5l5 5L18 6.5M11 16l1.5 1.5L23 6.5" />)
export const ErrorIcon = icon(<path d="M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 8v4M12 16h.01" />)
export const PlayedIcon = icon(<path d="M12 2a3 3 0 0 0-3 3v7a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3zM19 10v2a7 7 0 0 1-14 0v-2M12 19v3" />)
export const SmileIcon = icon(<path d="M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01" />)
export const PaperclipIcon = icon(<path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />)
export const SendIcon = icon(<path d="M22 2L11 13M22 2l-7 20-4-9-9-4 20-7z" />)
export const MicIcon = icon(<path d="M12 2a3 3 0 0 0-3 3v7a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3zM19 10v2a7 7 0 0 1-14 0v-2M12 19v3" />)
export const StopIcon = icon(<rect x="6" y="6" width="12" height="12" rx="1" />)
