// Keeps one realtime socket for the signed-in user, rebuilt when the user or the company changes (§4
// Session), and handles the forced logout: 'Sua conta foi acessada em outro computador.', then the
// session is cleared and the page goes to /login after 1 s.
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { clearSession, endSession, freshAccessToken } from '../../api/session.ts'
import { RealtimeSocket } from '../../api/socket.ts'
import { LOGIN_PATH } from '../../routes.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { flashToast, showToast } from '../toasts.tsx'

export const FORCED_LOGOUT_DELAY_MS = 1000
const loggedOutElsewhere = msg`Your account was accessed from another computer.`

function logOutAfterNotice(): void {
  const text = i18n._(loggedOutElsewhere)
  showToast('warning', text)
  setTimeout(() => {
    clearSession()
    flashToast('warning', text)
    location.replace(LOGIN_PATH)
  }, FORCED_LOGOUT_DELAY_MS)
}

export function useRealtimeConnection(): void {
  const user = useAtomValue(sessionUserAtom)
  const setSocket = useSetAtom(realtimeSocketAtom)
  const userId = user?.id
  const companyId = user?.companyId
  useEffect(() => {
    if (!userId || !companyId) return
    const socket = new RealtimeSocket({ companyId, token: freshAccessToken, onLoggedOutElsewhere: logOutAfterNotice, onSessionEnded: endSession })
    setSocket(socket)
    return () => {
      socket.close()
      setSocket(null)
    }
  }, [userId, companyId, setSocket])
}
