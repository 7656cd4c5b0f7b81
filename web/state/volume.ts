// Notification volume: 0 to 1 in steps of 0.1, kept in localStorage as `volume`, default 1 (§1).
import { atom } from 'jotai'
import { readStored, writeStored } from './storage.ts'

export const VOLUME_STEP = 0.1

export function clampVolume(value: number): number {
  if (!Number.isFinite(value)) return 1
  return Math.min(1, Math.max(0, Math.round(value / VOLUME_STEP) * VOLUME_STEP))
}

function storedVolume(): number {
  const stored = readStored('volume')
  return stored === null ? 1 : clampVolume(Number(stored))
}

const volumeValueAtom = atom(storedVolume())

export const volumeAtom = atom(
  (get) => get(volumeValueAtom),
  (_get, set, value: number) => {
    const volume = clampVolume(value)
    writeStored('volume', volume.toFixed(1))
    set(volumeValueAtom, volume)
  },
)
