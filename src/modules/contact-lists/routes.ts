// /contact-lists (§7 "Contact lists"): the paged search, the light list for selects, one list, create,
// rename, delete, the spreadsheet upload, adding the company's contacts (picked, or by tag), and the
// sample spreadsheet. The screens are the admins' (§2 campaigns section) and need the plan's campaigns.
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { authorizeRequest, tenant } from '../../core/tenant.ts'
import { cappedUploadParser, MULTIPART_ENVELOPE_BYTES } from '../contacts/upload-body.ts'
import {
  AddContactsBody,
  AddContactsResult,
  ContactList,
  ContactListBody,
  ContactListListQuery,
  ContactListOption,
  ContactListPage,
  ContactListSearchQuery,
  DeletedResponse,
  IdParams,
  ListUploadBody,
  ListUploadResult,
  MAX_UPLOAD_ROWS,
} from './model.ts'
import { SAMPLE_FILE_NAME, sampleSpreadsheet, XLSX_TYPE } from './sample.ts'
import {
  addContactsToList,
  createContactList,
  deleteContactList,
  listContactListOptions,
  listContactListPage,
  showContactList,
  updateContactList,
  uploadContactListItems,
} from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })
/** Admins of a company whose plan has campaigns (§6 "campaigns need useCampaigns"). */
export const contactListAuth = { profile: 'admin', feature: 'useCampaigns' } as const

export const contactListRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/contact-lists', tags: ['Contact lists'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listContactListPage(deps, caller.companyId, query), {
      auth: contactListAuth,
      query: ContactListSearchQuery,
      response: { 200: ContactListPage, 403: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Contact lists of the company, 20 per page by name, with contactsCount and validCount; searchParam matches the name' },
    })
    .get('/list', ({ caller, query }) => listContactListOptions(deps, caller, query.companyId), {
      auth: contactListAuth,
      query: ContactListListQuery,
      response: { 200: t.Array(ContactListOption), 403: ErrorBody, 404: ErrorBody },
      detail: { summary: 'Every contact list of the company, {id, name}, for selects (super users may pass companyId)' },
    })
    .get(
      '/sample',
      async () =>
        new Response(await sampleSpreadsheet(), {
          headers: { 'content-type': XLSX_TYPE, 'content-disposition': `attachment; filename="${SAMPLE_FILE_NAME}"`, 'cache-control': 'no-store' },
        }),
      {
        auth: contactListAuth,
        detail: {
          summary: 'The sample spreadsheet for uploads (.xlsx with the columns name, number, email)',
          responses: { 200: { description: 'The file (Content-Disposition: attachment)', content: { [XLSX_TYPE]: { schema: { type: 'string', format: 'binary' } } } } },
        },
      },
    )
    .get('/:id', ({ caller, params }) => showContactList(deps, { companyId: caller.companyId, contactListId: params.id }), {
      auth: contactListAuth,
      params: IdParams,
      response: { 200: ContactList, 403: ErrorBody, 404: ErrorBody },
      detail: { summary: 'One contact list with its counts' },
    })
    .post('', ({ caller, body }) => createContactList(deps, caller.companyId, body), {
      auth: contactListAuth,
      body: ContactListBody,
      response: { 200: ContactList, 403: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Create a contact list (name 2 to 50 characters)' },
    })
    .put('/:id', ({ caller, params, body }) => updateContactList(deps, { companyId: caller.companyId, contactListId: params.id }, body), {
      auth: contactListAuth,
      params: IdParams,
      body: ContactListBody,
      response: { 200: ContactList, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Rename a contact list' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteContactList(deps, { companyId: caller.companyId, contactListId: params.id })
        return { ok: true as const }
      },
      { auth: contactListAuth, params: IdParams, response: { 200: DeletedResponse, 403: ErrorBody, 404: ErrorBody }, detail: { summary: 'Delete a contact list with its items' } },
    )
    .post('/:id/upload', ({ caller, params, body }) => uploadContactListItems(deps, { companyId: caller.companyId, contactListId: params.id }, body.file), {
      auth: contactListAuth,
      params: IdParams,
      parse: cappedUploadParser(deps.config.media.maxBytes + MULTIPART_ENVELOPE_BYTES, { authorize: (request) => authorizeRequest(deps, request, contactListAuth) }),
      body: ListUploadBody,
      response: { 200: ListUploadResult, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
      detail: {
        summary: `Add items to a list from a spreadsheet (multipart \`file\`, .xlsx or .csv; at most ${MAX_UPLOAD_ROWS} rows)`,
        description:
          "The body may be as large as MEDIA_MAX_BYTES plus 64 KiB (413 beyond). The file is read as a stream and refused (422, field file) past the row limit, past 100 titled columns, or when an .xlsx inflates past 32 MB. The first row names the columns: name/nome, number/numero/telefone/celular/phone/whatsapp, email/e-mail (without case or accents). An old binary .xls (Excel 97-2003, BIFF8) is read too: its first worksheet, text and number cells, up to 8 MB. Blank rows are skipped; each rejected row is in errorBag with its line and a reason: MISSING_NAME, INVALID_NAME, MISSING_NUMBER, INVALID_NUMBER, INVALID_EMAIL, DUPLICATED_IN_FILE, ALREADY_IN_LIST. The new items' numbers are then checked with WhatsApp in the background (isWhatsappValid), a few per second per connection; the page hears them on company-<id>-ContactListItem-<listId>.",
      },
    })
    .post('/:id/contacts', ({ caller, params, body }) => addContactsToList(deps, { companyId: caller.companyId, contactListId: params.id }, body), {
      auth: contactListAuth,
      params: IdParams,
      body: AddContactsBody,
      response: { 200: AddContactsResult, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "Add the company's contacts to a list: those picked (contactIds) or those with a ticket carrying a tag (tagId)",
        description: 'Send one of contactIds or tagId. Groups are left out; numbers the list holds already are counted in alreadyInList. Another company\'s tag answers 404 ERR_NO_TAG_FOUND; contactIds none of which is the company\'s, 404 ERR_NO_CONTACT_FOUND.',
      },
    })
