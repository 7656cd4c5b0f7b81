// MP3 encoding of a recorded voice message (§9: 128 kbps; recordings under 10000 bytes are dropped).
// The encoder (@breezystack/lamejs, about 56 KB gzip) is imported only here, dynamically, when a
// recording starts, so it never weighs on the inbox's first load.

export const MP3_KBPS = 128
export const MIN_RECORDING_BYTES = 10_000
/** LAME takes whole frames of 1152 samples per channel. */
const FRAME = 1152

type Encoder = { encodeBuffer(left: Int16Array, right?: Int16Array): Uint8Array; flush(): Uint8Array }
type EncoderModule = { Mp3Encoder: new (channels: number, sampleRate: number, kbps: number) => Encoder }

let encoderModule: Promise<EncoderModule> | undefined

/** Starts loading the encoder (call when recording starts) and returns it. */
export function loadMp3Encoder(): Promise<EncoderModule> {
  encoderModule ??= import('@breezystack/lamejs')
  return encoderModule
}

/** Averages the channels into one (a voice message is mono). */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!
  const length = Math.min(...channels.map((channel) => channel.length))
  const mono = new Float32Array(length)
  for (const channel of channels) for (let index = 0; index < length; index += 1) mono[index]! += channel[index]! / channels.length
  return mono
}

/** Float samples in [-1, 1] as 16-bit PCM, clipped. */
export function toInt16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length)
  for (let index = 0; index < samples.length; index += 1) {
    const sample = Math.max(-1, Math.min(1, samples[index]!))
    pcm[index] = sample < 0 ? sample * 0x8000 : sample * 0x7fff
  }
  return pcm
}

/** Mono PCM to MP3 bytes at 128 kbps. */
export async function encodeMp3(samples: Float32Array, sampleRate: number): Promise<Uint8Array<ArrayBuffer>> {
  const { Mp3Encoder } = await loadMp3Encoder()
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS)
  const pcm = toInt16(samples)
  const parts: Uint8Array[] = []
  for (let start = 0; start < pcm.length; start += FRAME) {
    const chunk = encoder.encodeBuffer(pcm.subarray(start, start + FRAME))
    if (chunk.length > 0) parts.push(chunk.slice())
  }
  const tail = encoder.flush()
  if (tail.length > 0) parts.push(tail.slice())
  const out = new Uint8Array(new ArrayBuffer(parts.reduce((total, part) => total + part.length, 0)))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
