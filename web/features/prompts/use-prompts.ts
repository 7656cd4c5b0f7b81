// The company's prompts, kept live: GET /prompt, then the `prompt` channel (create/update upsert by id,
// delete by promptId) and the `queue` channel (a queue's new name, or its removal), and a fresh load
// after the socket reconnects (what was sent while it was down is lost).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { applyQueueChange, comparePrompts, removePrompt, toPromptRow, upsertPrompt, type PromptRow } from './prompt-row.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export function usePrompts() {
  const { i18n } = useLingui()
  const socket = useAtomValue(realtimeSocketAtom)
  const [prompts, setPrompts] = useState<PromptRow[]>([])
  const [loading, setLoading] = useState(true)

  const load = useCallback(async () => {
    try {
      const { data, error } = await api.prompt.get()
      if (error || !data) {
        toastFailure(i18n, error)
        return
      }
      setPrompts(data.prompts.map(toPromptRow).sort(comparePrompts))
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setLoading(false)
    }
  }, [i18n])

  useEffect(() => {
    void load()
  }, [load])
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  const upsert = useCallback((prompt: PromptRow) => setPrompts((current) => upsertPrompt(current, prompt)), [])
  const remove = useCallback((promptId: number) => setPrompts((current) => removePrompt(current, promptId)), [])

  useChannel('prompt', (event) => {
    if (event.action === 'delete') remove(event.promptId)
    else if (event.prompt) upsert(event.prompt)
  })
  useChannel('queue', (event) => {
    const change = event.action === 'delete' ? { queueId: event.queueId, name: null } : { queueId: event.queue.id, name: event.queue.name }
    setPrompts((current) => applyQueueChange(current, change))
  })

  return { prompts, loading, upsert, remove }
}
