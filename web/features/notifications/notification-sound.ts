// The new-message chime: two short tones synthesised with Web Audio at the user's volume (§1 volume
// setting), so there is no sound file to download. Browsers refuse audio before the first user
// gesture; then the chime is silently skipped.
let context: AudioContext | undefined

export function playChime(volume: number): void {
  if (volume <= 0 || typeof AudioContext === 'undefined') return
  try {
    context ??= new AudioContext()
    const started = context.currentTime
    for (const [offset, frequency] of [
      [0, 880],
      [0.12, 1320],
    ] as const) {
      const oscillator = context.createOscillator()
      const gain = context.createGain()
      oscillator.frequency.value = frequency
      gain.gain.setValueAtTime(0.0001, started + offset)
      gain.gain.exponentialRampToValueAtTime(0.25 * volume, started + offset + 0.02)
      gain.gain.exponentialRampToValueAtTime(0.0001, started + offset + 0.18)
      oscillator.connect(gain).connect(context.destination)
      oscillator.start(started + offset)
      oscillator.stop(started + offset + 0.2)
    }
  } catch {
    // No audio output: the bell's count still shows the message.
  }
}
