// Recording a voice message (§2, §9): starts at once, shows a timer, and offers cancel and send.
// The MP3 encoder is fetched only now (audio-recorder.ts), never on the page's first load.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { Button } from '../../components/button.tsx'
import { CloseIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { SendIcon } from './chat-icons.tsx'
import type { Recording } from './audio-recorder.ts'

export function formatDuration(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`
}

export function VoiceRecorder({ onCancel, onRecorded }: { onCancel: () => void; onRecorded: (file: File) => void }) {
  const { t } = useLingui()
  const recording = useRef<Recording | null>(null)
  const [seconds, setSeconds] = useState(0)
  const [state, setState] = useState<'starting' | 'recording' | 'encoding'>('starting')

  useEffect(() => {
    let cancelled = false
    void import('./audio-recorder.ts')
      .then(({ startRecording }) => startRecording())
      .then(
        (started) => {
          if (cancelled) return started.cancel()
          recording.current = started
          setState('recording')
        },
        () => {
          if (cancelled) return
          showToast('error', t`The microphone is not available. Check the browser's permission.`)
          onCancel()
        },
      )
    return () => {
      cancelled = true
      recording.current?.cancel()
      recording.current = null
    }
    // Runs once per recording.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    if (state !== 'recording') return
    const started = Date.now()
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 250)
    return () => window.clearInterval(timer)
  }, [state])

  const cancel = () => {
    recording.current?.cancel()
    recording.current = null
    onCancel()
  }

  const send = async () => {
    const current = recording.current
    if (!current) return
    recording.current = null
    setState('encoding')
    try {
      const file = await current.finish()
      if (file) onRecorded(file)
      else {
        showToast('info', t`The recording is too short to send.`)
        onCancel()
      }
    } catch {
      showToast('error', t`The recording could not be processed.`)
      onCancel()
    }
  }

  return (
    <div className="chat-recorder" role="group" aria-label={t`Audio recording`}>
      <Button variant="ghost" icon aria-label={t`Cancel recording`} onPress={cancel} isDisabled={state === 'encoding'}>
        <CloseIcon />
      </Button>
      <span className="chat-recorder-dot" aria-hidden="true" data-active={state === 'recording' || undefined} />
      <span className="chat-recorder-time" role="timer" aria-label={t`Recording time`}>
        {formatDuration(seconds)}
      </span>
      <span className="chat-recorder-state">{state === 'encoding' ? t`Preparing audio…` : state === 'starting' ? t`Starting microphone…` : t`Recording`}</span>
      <Button variant="primary" icon aria-label={t`Send recording`} onPress={() => void send()} isDisabled={state !== 'recording'} isPending={state === 'encoding'}>
        <SendIcon />
      </Button>
    </div>
  )
}
