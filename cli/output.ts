// How the CLI speaks: aligned tables for people, JSON for scripts, one-line errors.
import { AppError, type ErrorCode } from '../src/core/errors.ts'

/** A refusal the operator can act on: printed as one line, exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CliError'
  }
}

export type Column<Row> = { header: string; value: (row: Row) => unknown }

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-'
  if (value instanceof Date) return value.toISOString().replace('T', ' ').slice(0, 19)
  return String(value).replaceAll('\n', ' ')
}

export function printTable<Row>(rows: Row[], columns: Column<Row>[]): void {
  if (rows.length === 0) {
    console.log('(none)')
    return
  }
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))))
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index]!.length)))
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index]!)).join('  ').trimEnd()
  console.log(line(columns.map((column) => column.header)))
  for (const values of cells) console.log(line(values))
}

/** "label: value" lines with the labels aligned, for one created or changed record. */
export function printRecord(fields: [label: string, value: unknown][]): void {
  const width = Math.max(...fields.map(([label]) => label.length))
  for (const [label, value] of fields) console.log(`${`${label}:`.padEnd(width + 1)} ${cell(value)}`)
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2))
}

const appErrorMessages: Partial<Record<ErrorCode, string>> = {
  ERR_NO_PLAN_FOUND: 'no such plan',
  ERR_NO_COMPANY_FOUND: 'no such company',
  ERR_PLAN_NAME_ALREADY_EXISTS: 'a plan with this name exists already',
  ERR_COMPANY_NAME_ALREADY_EXISTS: 'a company with this name exists already',
  ERR_EMAIL_ALREADY_EXISTS: 'a user with this e-mail exists already',
  ERR_PLAN_LIMIT_USERS: "the company's plan allows no more users",
  ERR_PLAN_IN_USE: 'companies are on this plan: move them to another plan first',
  ERR_NO_HELP_FOUND: 'no such help',
  ERR_NO_USER_FOUND: 'no such user',
  ERR_NO_PERMISSION: 'not allowed (the platform company and super users are protected)',
}

function describeAppError(error: AppError): string {
  const fields = error.details?.fields
  if (error.code === 'ERR_VALIDATION' && Array.isArray(fields)) {
    return (fields as { field: string; message: string }[]).map((field) => field.message || `${field.field} is invalid`).join('; ')
  }
  const known = appErrorMessages[error.code]
  return known ? `${known} (${error.code})` : error.details ? `${error.code} ${JSON.stringify(error.details)}` : error.code
}

/** The one line an operator sees for a failure: never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message
  if (error instanceof AppError) return describeAppError(error)
  // Driver errors wrap the server's message in their cause; the outer message repeats the SQL.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error))
  return message.split('\n')[0]!.trim() || 'unknown error'
}
