// Request and response schemas of the contacts API (spec §3 Contact, §5 Contact and Import, §7 Contacts).
import { t } from 'elysia'
import { ContactSummary } from '../messages/model.ts'
import { PageQuery, positiveId } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

/** One spreadsheet upload (rows in the body, or a file) holds at most this many contacts. */
export const MAX_UPLOAD_ROWS = 5000

export const ExtraInfo = t.Object({ id: t.Integer(), name: t.String(), value: t.String() })
export type ExtraInfo = typeof ExtraInfo.static

/** A contact in lists: the fields of the realtime `contact` channel (ContactSummary) plus its dates. */
export const ContactItem = t.Composite([ContactSummary, t.Object({ createdAt: t.Date(), updatedAt: t.Date() })])
export type ContactItem = typeof ContactItem.static

export const ContactDetail = t.Object({
  ...ContactItem.properties,
  disableBot: t.Boolean(),
  extraInfo: t.Array(ExtraInfo),
  whatsapp: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
})
export type ContactDetail = typeof ContactDetail.static

/** The light shape for selects and the new-ticket autocomplete. */
export const ContactOption = t.Object({ id: t.Integer(), name: t.String(), number: t.String() })
export type ContactOption = typeof ContactOption.static

export const ContactPage = t.Object({
  contacts: t.Array(ContactItem),
  count: t.Integer({ description: 'All contacts matching the filters' }),
  hasMore: t.Boolean(),
})
export type ContactPage = typeof ContactPage.static

const day = (name: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', title: name, error: `${name} must be a date as YYYY-MM-DD`, description: "A day in the company's time zone" })

/** Filters shared by the list and the export. */
export const contactFilters = {
  searchParam: PageQuery.searchParam,
  date: t.Optional(day('date')),
  dateStart: t.Optional(day('dateStart')),
  dateEnd: t.Optional(day('dateEnd')),
}

export const ContactSearchQuery = t.Object({ ...contactFilters, pageNumber: PageQuery.pageNumber })
export type ContactSearchQuery = typeof ContactSearchQuery.static

export const ContactListQuery = t.Object({
  searchParam: PageQuery.searchParam,
  /** Super users may list another company's contacts; anyone may name his own. */
  companyId: t.Optional(t.Integer({ minimum: 1, maximum: 2_147_483_647, title: 'companyId', error: 'companyId must be a positive integer' })),
})
export type ContactListQuery = typeof ContactListQuery.static

export const ExportQuery = t.Object({
  ...contactFilters,
  format: t.Optional(t.UnionEnum(['xlsx', 'csv'], { title: 'format', error: 'format must be xlsx or csv', default: 'xlsx' })),
})
export type ExportQuery = typeof ExportQuery.static

const nameSchema = t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' })
const numberSchema = t.String({
  minLength: 8,
  maxLength: 50,
  error: 'number is required, 8 to 50 characters: the phone with area code (a mask such as (11) 98765-4321 is fine)',
})
export const emailSchema = t.Union([t.Literal(''), t.String({ format: 'email', maxLength: 254 })], { error: 'email must be a valid e-mail address, or empty' })

export const ExtraInfoInput = t.Object({
  /** An existing field of this contact to keep and edit; without it (or unknown) a new field is added. */
  id: t.Optional(positiveId('extraInfo.id')),
  name: t.String({ minLength: 1, maxLength: 100, error: 'extraInfo name is required, up to 100 characters' }),
  value: t.Optional(t.String({ maxLength: 1000, error: 'extraInfo value must be at most 1000 characters' })),
})
export type ExtraInfoInput = typeof ExtraInfoInput.static

const extraInfoList = t.Array(ExtraInfoInput, { maxItems: 50, error: 'extraInfo must be a list of at most 50 {name, value} fields' })

export const CreateContactBody = t.Object({
  name: nameSchema,
  number: numberSchema,
  email: t.Optional(emailSchema),
  extraInfo: t.Optional(extraInfoList),
})
export type CreateContactBody = typeof CreateContactBody.static

/** Only the fields sent change; extraInfo, when sent, is the contact's whole list of extra fields. */
export const UpdateContactBody = t.Object({
  name: t.Optional(nameSchema),
  number: t.Optional(numberSchema),
  email: t.Optional(emailSchema),
  extraInfo: t.Optional(extraInfoList),
})
export type UpdateContactBody = typeof UpdateContactBody.static

/** One spreadsheet row as the browser read it: header -> cell. */
export const SheetRow = t.Record(t.String(), t.Union([t.String({ maxLength: 1000 }), t.Number(), t.Boolean(), t.Null()]), {
  maxProperties: 100,
  error: 'each row must be an object of at most 100 columns -> text (up to 1000 characters), number, boolean or null',
})
export type SheetRow = typeof SheetRow.static

export const UploadBody = t.Union(
  [
    t.Array(SheetRow, { maxItems: MAX_UPLOAD_ROWS }),
    t.Object({ file: t.File({ description: 'A .xlsx or .csv file; the first row holds the column names' }) }),
  ],
  { error: `the body must be an array of at most ${MAX_UPLOAD_ROWS} rows, or a multipart form with a .xlsx or .csv file` },
)
export type UploadBody = typeof UploadBody.static

export const uploadReasons = ['MISSING_NAME', 'INVALID_NAME', 'MISSING_NUMBER', 'INVALID_NUMBER', 'INVALID_EMAIL', 'DUPLICATED_IN_FILE', 'ALREADY_EXISTS'] as const
export type UploadReason = (typeof uploadReasons)[number]

export const UploadError = t.Object({
  /** The row's position among the rows sent (0 first); blank rows count too. */
  index: t.Integer(),
  /** For a file: the spreadsheet's line number (the header is line 1 when it is the first). */
  line: t.Optional(t.Integer()),
  row: SheetRow,
  reason: t.UnionEnum(uploadReasons),
  message: t.String(),
  /** ALREADY_EXISTS: the contact that has the number. DUPLICATED_IN_FILE: see duplicateOf. */
  contactId: t.Optional(t.Integer()),
  /** DUPLICATED_IN_FILE: the index of the row that has the number first. */
  duplicateOf: t.Optional(t.Integer()),
})
export type UploadError = typeof UploadError.static

export const UploadResult = t.Object({ newContacts: t.Array(ContactItem), errorBag: t.Array(UploadError) })
export type UploadResult = typeof UploadResult.static

export const ImportBody = t.Object({
  whatsappId: t.Optional(positiveId('whatsappId')),
})
export type ImportBody = typeof ImportBody.static

export const ImportResult = t.Object({
  newContacts: t.Array(ContactItem),
  /** Contacts we had under their bare number, now named as the phone knows them. */
  updatedContacts: t.Array(ContactItem),
  /** Contacts of the phone we already had as they are. */
  unchanged: t.Integer(),
  /** Entries of the phone without a usable number. */
  invalid: t.Integer(),
})
export type ImportResult = typeof ImportResult.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
