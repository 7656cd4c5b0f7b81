// The active quick messages for the '/' shortcut, fetched once per input on the first '/' typed.
import { useCallback, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import type { QuickMessage } from '../../../src/modules/quick-messages/model.ts'

export function useQuickReplies(): { quickMessages: QuickMessage[]; ensureLoaded: () => void } {
  const [quickMessages, setQuickMessages] = useState<QuickMessage[]>([])
  const requested = useRef(false)
  const ensureLoaded = useCallback(() => {
    if (requested.current) return
    requested.current = true
    void api['quick-messages'].list.get({ query: {} }).then(({ data }) => {
      // Without the list the shortcut offers nothing; typing still works.
      if (data) setQuickMessages(data)
      else requested.current = false
    })
  }, [])
  return { quickMessages, ensureLoaded }
}
