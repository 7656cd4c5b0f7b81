// What the settings page hears (README "Realtime"): `settings` (the company's admins: a setting's new
// value, the company's hours), and the platform lists the super users' tabs show, `companies` and
// `plans` (super users only) and `helps` (everyone). Creates and edits carry the row; deletes the id.
// The frames' types are src/contracts/realtime.ts's (useChannel gives them).

/** Replaces the row with the same id, or adds it at the end. */
export function upsertById<Row extends { id: number }>(rows: readonly Row[], row: Row): Row[] {
  return rows.some((existing) => existing.id === row.id) ? rows.map((existing) => (existing.id === row.id ? row : existing)) : [...rows, row]
}
