// A form's answer to the server's refusal: its 422 `fields` (§8) onto the form's own field errors,
// with the text of the form's rule for each field it names.

/**
 * The fields of `texts` that the server refused, each with its text. A list's item is named by its
 * path ("queueIds.0"): it counts for the list. Fields the form does not show are left out.
 */
export function serverFieldErrors<Field extends string, Text>(failure: { fields: readonly { field: string }[] }, texts: Record<Field, Text>): Partial<Record<Field, Text>> {
  const errors: Partial<Record<Field, Text>> = {}
  for (const { field: path } of failure.fields) {
    const field = path.split('.')[0] as Field
    if (Object.hasOwn(texts, field)) errors[field] = texts[field]
  }
  return errors
}
