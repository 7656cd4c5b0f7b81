// /contacts (spec §7 Contacts): the searchable list, the light list, one contact, create, edit,
// delete (admins), spreadsheet upload, the phone's WhatsApp contacts import, and the export.
import { Elysia, t } from 'elysia'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { authorizeRequest, tenant } from '../../core/tenant.ts'
import { exportContacts } from './export.ts'
import {
  ContactDetail,
  ContactListQuery,
  ContactOption,
  ContactPage,
  ContactSearchQuery,
  CreateContactBody,
  DeletedResponse,
  ExportQuery,
  IdParams,
  ImportBody,
  ImportResult,
  MAX_UPLOAD_ROWS,
  UpdateContactBody,
  UploadBody,
  UploadResult,
} from './model.ts'
import { importPhoneContacts } from './phone-import.ts'
import { deleteContact } from './remove.ts'
import { createContact, updateContact } from './save.ts'
import { listContactOptions, listContactPage, showContact } from './service.ts'
import { MAX_UPLOAD_COLUMNS } from './sheet-collector.ts'
import { cappedUploadParser, MULTIPART_ENVELOPE_BYTES } from './upload-body.ts'
import { uploadContactsFrom } from './upload.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const contactRoutes = (deps: Deps, connections: ConnectionRegistry) =>
  new Elysia({ prefix: '/contacts', tags: ['Contacts'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listContactPage(deps, caller.companyId, query), {
      auth: true,
      query: ContactSearchQuery,
      response: { 200: ContactPage, 422: ErrorBody },
      detail: {
        summary: 'Contacts of the company, 20 per page by name',
        description:
          "searchParam matches the name or e-mail (contains, any case), and a search of digits and mask characters also the number's digits. date picks the contacts created on that day, dateStart/dateEnd a range (days in the company's time zone, both ends included); filters combine.",
      },
    })
    .get('/list', ({ caller, query }) => listContactOptions(deps, caller, query), {
      auth: true,
      query: ContactListQuery,
      response: { 200: t.Array(ContactOption), 403: ErrorBody, 404: ErrorBody },
      detail: {
        summary: 'Light list {id, name, number} for selects and the new-ticket autocomplete',
        description:
          'Without searchParam: every contact of the company, by name. With searchParam: the autocomplete, from 3 characters (a shorter search answers []), the first 50 matches. Super users may pass companyId.',
      },
    })
    .get(
      '/export',
      async ({ caller, query }) => {
        const file = await exportContacts(deps, caller.companyId, query)
        return new Response(file.body, {
          headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.fileName}"`, 'cache-control': 'no-store' },
        })
      },
      {
        auth: true,
        query: ExportQuery,
        detail: {
          summary: "Download the company's contacts as .xlsx (default) or .csv",
          description:
            'Columns name, number, email, createdAt, in name order; the same filters as the list. The CSV is UTF-8 with a BOM (Excel reads accents), every field quoted; a cell starting with = + - @ is prefixed with a quote so that Excel never runs it as a formula.',
          responses: {
            200: {
              description: 'The file (Content-Disposition: attachment)',
              content: {
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
                'text/csv': { schema: { type: 'string' } },
              },
            },
          },
        },
      },
    )
    .get('/:id', ({ caller, params }) => showContact(deps, { companyId: caller.companyId, contactId: params.id }), {
      auth: true,
      params: IdParams,
      response: { 200: ContactDetail, 404: ErrorBody },
      detail: { summary: 'One contact with its extra fields and connection' },
    })
    .post('', ({ caller, body }) => createContact(deps, connections, caller.companyId, body), {
      auth: true,
      body: CreateContactBody,
      response: { 200: ContactDetail, 400: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      detail: {
        summary: 'Add a contact',
        description:
          'The number keeps its digits; one typed without a country code (10 or 11 digits such as (11) 98765-4321) gets Brazil\'s 55, unless it starts with "+". With a live WhatsApp connection the number is checked (400 ERR_WAPP_INVALID_CONTACT if WhatsApp does not know it) and stored as WhatsApp writes it. A number the company has already: 409 ERR_DUPLICATED_CONTACT with that contactId.',
      },
    })
    .put('/:id', ({ caller, params, body }) => updateContact(deps, connections, caller, { companyId: caller.companyId, contactId: params.id }, body), {
      auth: true,
      params: IdParams,
      body: UpdateContactBody,
      response: { 200: ContactDetail, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      detail: {
        summary: 'Edit a contact (only the fields sent change)',
        description:
          'extraInfo, when sent, is the whole list: fields with an id of this contact are edited, the others added, and the fields left out removed. The number follows the rules of POST. Changing the number of a contact with open tickets (their replies go to it) takes an admin or a user who can see every one of them: 403 ERR_NO_PERMISSION otherwise.',
      },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteContact(deps, { companyId: caller.companyId, contactId: params.id })
        return { ok: true as const }
      },
      {
        auth: 'admin',
        params: IdParams,
        response: { 200: DeletedResponse, 403: ErrorBody, 404: ErrorBody },
        detail: { summary: 'Delete a contact with its tickets, messages, notes and schedules (admins)' },
      },
    )
    .post('/upload', ({ caller, body }) => uploadContactsFrom(deps, caller.companyId, body), {
      // A bulk change of the company's contacts is an admin's decision (§6), like deleting one.
      auth: 'admin',
      parse: cappedUploadParser(deps.config.media.maxBytes + MULTIPART_ENVELOPE_BYTES, {
        authorize: (request) => authorizeRequest(deps, request, 'admin'),
        // The array and one object per row; each row's cells at most the columns a file may have.
        rows: { maxContainers: MAX_UPLOAD_ROWS + 1, maxValues: MAX_UPLOAD_ROWS * MAX_UPLOAD_COLUMNS },
      }),
      body: UploadBody,
      response: { 200: UploadResult, 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
      detail: {
        summary: `Import contacts from a spreadsheet (at most ${MAX_UPLOAD_ROWS} rows; admins)`,
        description:
          'Admins only (403 ERR_NO_PERMISSION). The body may be as large as MEDIA_MAX_BYTES plus 64 KiB (413 beyond); a file is read as a stream and refused (422, field file) past the row limit, past 100 titled columns, or when an .xlsx inflates past 32 MB. JSON: the sheet rows as the browser read them, objects keyed by column title. Multipart: `file`, a .xlsx (first sheet), an old .xls (Excel 97-2003, first sheet, up to 8 MB) or .csv (UTF-8 or Windows-1252, separated by , ; or tab) whose first row holds the titles. Titles are matched without case or accents: name/nome, number/numero/telefone/celular/phone/whatsapp, email/e-mail. Blank rows are skipped. Each rejected row is in errorBag with its index, the row and a reason: MISSING_NAME, INVALID_NAME, MISSING_NUMBER, INVALID_NUMBER, INVALID_EMAIL, DUPLICATED_IN_FILE (duplicateOf), ALREADY_EXISTS (contactId; the existing contact is left as it is).',
      },
    })
    .post('/import', ({ caller, body }) => importPhoneContacts(deps, connections, caller.companyId, body ?? {}), {
      auth: true,
      body: t.Optional(ImportBody),
      response: { 200: ImportResult, 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "Import the WhatsApp contacts of the connection's phone (the default connection unless whatsappId)",
        description:
          'New numbers become contacts named as the phone names them; contacts known only by their number get that name. Needs a connected session (400 ERR_WAPP_NOT_INITIALIZED) whose provider can list the phone\'s contacts: the simulator can; Baileys (v7) keeps no contact list and answers 400 ERR_WAPP_CONTACTS_UNAVAILABLE.',
      },
    })
