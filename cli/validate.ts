// The CLI checks what it assembled against the REST API's own schemas, so both refuse the same input.
import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { CliError } from './output.ts'

export function assertMatches<Schema extends TSchema>(schema: Schema, value: unknown): asserts value is Static<Schema> {
  const [first] = Value.Errors(schema, value)
  if (!first) return
  const field = first.path.replace(/^\//, '').replaceAll('/', '.') || 'input'
  const custom = (first.schema as { error?: unknown }).error
  throw new CliError(typeof custom === 'string' ? custom : `${field}: ${first.message}`)
}
