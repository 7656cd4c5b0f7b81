// Recording a voice message in the browser: the microphone through MediaRecorder (whatever codec
// the browser has), decoded back to PCM when the agent sends it, then encoded as MP3 (mp3.ts).
import { downmix, encodeMp3, loadMp3Encoder, MIN_RECORDING_BYTES } from './mp3.ts'

export type Recording = {
  /** Stops the microphone and gives the MP3 file, or null when it is too short to keep (§9). */
  finish(): Promise<File | null>
  /** Stops the microphone and throws the recording away. */
  cancel(): void
}

export async function startRecording(): Promise<Recording> {
  // Loaded while the agent speaks, so that sending does not wait for it.
  void loadMp3Encoder()
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true })
  const recorder = new MediaRecorder(stream)
  const chunks: Blob[] = []
  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0) chunks.push(event.data)
  })
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }))
  recorder.start()
  const stop = async () => {
    if (recorder.state !== 'inactive') recorder.stop()
    await stopped
    for (const track of stream.getTracks()) track.stop()
  }
  return {
    async finish() {
      await stop()
      const recorded = new Blob(chunks, { type: recorder.mimeType })
      const context = new AudioContext()
      try {
        const audio = await context.decodeAudioData(await recorded.arrayBuffer())
        const channels = Array.from({ length: audio.numberOfChannels }, (_, index) => audio.getChannelData(index))
        const mp3 = await encodeMp3(downmix(channels), audio.sampleRate)
        if (mp3.length < MIN_RECORDING_BYTES) return null
        return new File([mp3], `audio-${Date.now()}.mp3`, { type: 'audio/mpeg' })
      } finally {
        void context.close()
      }
    },
    cancel() {
      void stop()
    },
  }
}
