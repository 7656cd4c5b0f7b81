// Contact lists and their items (§3 "Contact list", §5, §7 "Contact lists"): the schemas the routes
// validate with and the types the services take, one source for both.
import { t } from 'elysia'
import { PageQuery, positiveId } from '../../core/schemas.ts'
import { emailSchema, SheetRow } from '../contacts/model.ts'

export { IdParams } from '../../core/schemas.ts'

/** Rows one upload may hold: the contacts import's cap, so the same streaming reader serves both. */
export { MAX_UPLOAD_ROWS } from '../contacts/model.ts'

export const ContactList = t.Object({
  id: t.Integer(),
  name: t.String(),
  companyId: t.Integer(),
  /** How many items the list holds. */
  contactsCount: t.Integer(),
  /** Of them, how many WhatsApp confirmed (the campaigns send only to these). */
  validCount: t.Integer(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type ContactList = typeof ContactList.static

export const ContactListOption = t.Object({ id: t.Integer(), name: t.String() })
export type ContactListOption = typeof ContactListOption.static

export const ContactListSearchQuery = t.Object(PageQuery)
export type ContactListSearchQuery = typeof ContactListSearchQuery.static

export const ContactListPage = t.Object({ records: t.Array(ContactList), count: t.Integer(), hasMore: t.Boolean() })

export const ContactListListQuery = t.Object({
  /** Whaticket clients name their own company; only super users may name another. */
  companyId: t.Optional(positiveId('companyId')),
})

const listName = t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' })

export const ContactListBody = t.Object({ name: listName })
export type ContactListBody = typeof ContactListBody.static

export const ContactListItem = t.Object({
  id: t.Integer(),
  name: t.String(),
  number: t.String(),
  email: t.String(),
  /** False until WhatsApp confirmed the number (see whatsappCheckedAt). */
  isWhatsappValid: t.Boolean(),
  /** When the number was checked; null while the check is pending. */
  whatsappCheckedAt: t.Nullable(t.Date()),
  companyId: t.Integer(),
  contactListId: t.Integer(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type ContactListItem = typeof ContactListItem.static

export const ContactListItemSearchQuery = t.Object({
  ...PageQuery,
  contactListId: positiveId('contactListId'),
})
export type ContactListItemSearchQuery = typeof ContactListItemSearchQuery.static

export const ContactListItemPage = t.Object({ contacts: t.Array(ContactListItem), count: t.Integer(), hasMore: t.Boolean() })

const itemFields = {
  name: t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' }),
  number: t.String({ minLength: 8, maxLength: 50, error: 'number is required, 8 to 50 characters' }),
  email: emailSchema,
}

export const CreateContactListItemBody = t.Object({
  name: itemFields.name,
  number: itemFields.number,
  email: t.Optional(itemFields.email),
  contactListId: positiveId('contactListId'),
})
export type CreateContactListItemBody = typeof CreateContactListItemBody.static

/** Only the fields sent change; an item stays in its list. */
export const UpdateContactListItemBody = t.Partial(t.Object(itemFields))
export type UpdateContactListItemBody = typeof UpdateContactListItemBody.static

export const ListUploadBody = t.Object({ file: t.File({ description: 'A .xlsx or .csv file; the first row names the columns (name, number, email)' }) })
export type ListUploadBody = typeof ListUploadBody.static

export const listUploadReasons = ['MISSING_NAME', 'INVALID_NAME', 'MISSING_NUMBER', 'INVALID_NUMBER', 'INVALID_EMAIL', 'DUPLICATED_IN_FILE', 'ALREADY_IN_LIST'] as const
export type ListUploadReason = (typeof listUploadReasons)[number]

export const ListUploadError = t.Object({
  /** The spreadsheet's line number (the header is line 1 when it is the first). */
  line: t.Integer(),
  row: SheetRow,
  reason: t.UnionEnum(listUploadReasons),
  message: t.String(),
})
export type ListUploadError = typeof ListUploadError.static

export const ListUploadResult = t.Object({
  contactListId: t.Integer(),
  /** Items added to the list; their WhatsApp check runs in the background. */
  added: t.Integer(),
  errorBag: t.Array(ListUploadError),
})
export type ListUploadResult = typeof ListUploadResult.static

/** Adding contacts of the company to a list: those picked in /contacts, or those whose tickets carry a tag. */
export const AddContactsBody = t.Object({
  contactIds: t.Optional(t.Array(positiveId('contactIds'), { minItems: 1, maxItems: 5000, error: 'contactIds must be 1 to 5000 contact ids' })),
  tagId: t.Optional(positiveId('tagId')),
})
export type AddContactsBody = typeof AddContactsBody.static

export const AddContactsResult = t.Object({ contactListId: t.Integer(), added: t.Integer(), alreadyInList: t.Integer() })
export type AddContactsResult = typeof AddContactsResult.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
