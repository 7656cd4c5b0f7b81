// §9 "Queue colour: drawn from a fixed palette". Twelve colours chosen to be far apart from each other
// (CIE76 distance of 28 or more between any two) and each dark enough for white text at WCAG AA (4.5:1),
// because the inbox prints queue names on their colour. queues.test.ts checks both.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export type PaletteColor = { value: string; name: MessageDescriptor }

export const queuePalette: readonly PaletteColor[] = [
  { value: '#1d4ed8', name: msg`Blue` },
  { value: '#c2410c', name: msg`Orange` },
  { value: '#047857', name: msg`Green` },
  { value: '#6d28d9', name: msg`Violet` },
  { value: '#be185d', name: msg`Pink` },
  { value: '#0e7490', name: msg`Cyan` },
  { value: '#a16207', name: msg`Gold` },
  { value: '#1e3a8a', name: msg`Navy` },
  { value: '#a21caf', name: msg`Magenta` },
  { value: '#4d7c0f', name: msg`Olive` },
  { value: '#7f1d1d', name: msg`Maroon` },
  { value: '#1f2937', name: msg`Charcoal` },
]

/** The palette entry of a stored colour, whatever its case. */
export function paletteColorOf(color: string): PaletteColor | undefined {
  const value = color.trim().toLowerCase()
  return queuePalette.find((entry) => entry.value === value)
}

/** A new queue starts with the first colour no other queue uses (the first one when all are taken). */
export function firstFreeColor(usedColors: readonly string[]): string {
  const used = new Set(usedColors.map((color) => color.trim().toLowerCase()))
  return (queuePalette.find((entry) => !used.has(entry.value)) ?? queuePalette[0]!).value
}
