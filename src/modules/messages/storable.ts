// What PostgreSQL accepts from WhatsApp: text without NUL characters, the raw message as jsonb.

/** PostgreSQL text cannot hold NUL characters; WhatsApp text occasionally does. */
export const storableText = (value: string): string => value.replaceAll('\u0000', '')

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

const isSerialisedBuffer = (value: unknown): value is { type: 'Buffer'; data: number[] } =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)

/**
 * The provider's raw message as a JSON value jsonb keeps: bytes become base64 strings, which is how
 * protobuf's JSON form writes them (Baileys' fromObject reads them back as bytes). Undefined when it
 * cannot be serialised; the message itself is never lost over it.
 */
export function storableRaw(raw: unknown): JsonValue | undefined {
  const text = storableRawJson(raw)
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue)
}

/** storableRaw as JSON text (what the batched insert sends). */
export function storableRawJson(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined
  try {
    const text = JSON.stringify(raw, (_key, value: unknown) => {
      if (value instanceof Uint8Array) return Buffer.from(value).toString('base64')
      // A Buffer has already been turned into {type: 'Buffer', data: [...]} by its toJSON.
      if (isSerialisedBuffer(value)) return Buffer.from(value.data).toString('base64')
      if (typeof value === 'bigint') return value.toString()
      return value
    })
    return text === undefined || text === 'null' ? undefined : text
  } catch {
    return undefined
  }
}
