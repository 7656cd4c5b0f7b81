// The colour input takes only "#rrggbb"; stored tags may hold "#abc" or "#RRGGBB" (the API accepts 3 to
// 9 characters), which would otherwise show as black and be saved back unchanged by mistake.

export function colorInputValue(color: string | null | undefined, fallback: string): string {
  const value = (color ?? '').trim().toLowerCase()
  if (/^#[0-9a-f]{6}$/.test(value)) return value
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value)
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`
  // "#rrggbbaa": the input has no alpha.
  if (/^#[0-9a-f]{8}$/.test(value)) return value.slice(0, 7)
  return fallback
}
