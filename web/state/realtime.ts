// The live socket of the signed-in user, for pages to listen and join rooms (null while signed out).
import { atom } from 'jotai'
import type { RealtimeSocket } from '../api/socket.ts'

export const realtimeSocketAtom = atom<RealtimeSocket | null>(null)
