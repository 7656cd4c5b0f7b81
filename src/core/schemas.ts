// Schemas shared by many routes. Numeric query and path values carry a title because Elysia reports
// a coerced value's failure without its name; the error mapper reads the title instead.
import { t } from 'elysia'

// Ids are PostgreSQL integers: a larger number is a 422 here, not an 'out of range' 500 from the database.
export const positiveId = (name: string) => t.Integer({ minimum: 1, maximum: 2_147_483_647, title: name, error: `${name} must be a positive integer` })

export const IdParams = t.Object({ id: positiveId('id') })

/** Printable text only: NUL and other control characters are refused (PostgreSQL rejects NUL in text). */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]*$'

/** A search box's text: at most `maxLength` characters, no control characters (422 before any query runs). */
export const searchText = (maxLength: number, options: { name?: string; description?: string } = {}) => {
  const name = options.name ?? 'searchParam'
  const error = `${name} must be at most ${maxLength} characters, without control characters`
  return t.String({ maxLength, pattern: NO_CONTROL_CHARACTERS, title: name, error, ...(options.description ? { description: options.description } : {}) })
}

export const PageQuery = {
  searchParam: t.Optional(searchText(200)),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
}

export const PAGE_SIZE = 20

/** §5's reset rule, for every password set (reset, user create and edit, profile): 8+ characters, upper, lower, digit. */
export const PASSWORD_RULE = '^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]).{8,}$'

export const passwordSchema = (name: string) =>
  t.String({ pattern: PASSWORD_RULE, maxLength: 200, error: `${name} must have at least 8 characters, with one uppercase letter, one lowercase letter and one digit` })
