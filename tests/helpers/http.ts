// Reading Eden results in tests without fighting their error unions.
export type ErrorBody = { error: string; fields?: { field: string; message: string }[]; [key: string]: unknown }

/** The JSON error body of a failed call (undefined when it succeeded). */
export function errorOf(result: { error: { value: unknown } | null }): ErrorBody | undefined {
  return result.error?.value as ErrorBody | undefined
}

/** The names of the fields a validation error points at. */
export function fieldsOf(result: { error: { value: unknown } | null }): string[] {
  return (errorOf(result)?.fields ?? []).map((field) => field.field)
}
