// The message being replied to, shared by the list (its "Reply" option) and the input (the quote
// above the text, sent as quotedMsg). It names its ticket so that a reply never leaks into another.
import { atom } from 'jotai'
import type { ChatMessage } from './chat-message.ts'

export type ReplyTarget = { ticketId: number; message: ChatMessage }

export const replyingToAtom = atom<ReplyTarget | null>(null)
