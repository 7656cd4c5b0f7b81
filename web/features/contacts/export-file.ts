// The export's formats and the name its file is saved under.

export type ExportFormat = 'xlsx' | 'csv'

/** The name the server gives the file (Content-Disposition), or a plain one. */
export function fileNameOf(disposition: string | null, format: ExportFormat): string {
  const quoted = disposition ? /filename="([^"]+)"/i.exec(disposition)?.[1] : undefined
  return quoted ?? `contacts.${format}`
}
