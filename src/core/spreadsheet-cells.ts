// Text written into a spreadsheet (xlsx or csv) that a user or a customer wrote.

/**
 * A cell Excel would run as a formula (=, +, -, @, tab, CR first) is prefixed with a quote: names and
 * replies come from WhatsApp, that is from anyone (OWASP "CSV injection").
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}
