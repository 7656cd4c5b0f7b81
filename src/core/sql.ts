// SQL helpers every module's queries share.

/**
 * A LIKE / ILIKE pattern for "contains the text": the text's own %, _ and \ match themselves,
 * escaped with a backslash (PostgreSQL's default LIKE escape), so a search for "50%" or "a_b" finds
 * exactly that and never turns into a wildcard.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** The rows of an execute(), as either driver returns them (postgres.js an array, PGlite { rows }). */
export function rowsOf<Row>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[]
}
