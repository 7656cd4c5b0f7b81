// /contact-list-items (§7 "Contact lists"): one list's items, paged and searchable, and each item.
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { ContactListItem, ContactListItemPage, ContactListItemSearchQuery, CreateContactListItemBody, DeletedResponse, IdParams, UpdateContactListItemBody } from './model.ts'
import { contactListAuth } from './routes.ts'
import { createContactListItem, deleteContactListItem, listContactListItemPage, showContactListItem, updateContactListItem } from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const contactListItemRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/contact-list-items', tags: ['Contact lists'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listContactListItemPage(deps, caller.companyId, query), {
      auth: contactListAuth,
      query: ContactListItemSearchQuery,
      response: { 200: ContactListItemPage, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: "A list's items, 20 per page by name; searchParam matches name, e-mail or the number's digits" },
    })
    .get('/:id', ({ caller, params }) => showContactListItem(deps, { companyId: caller.companyId, itemId: params.id }), {
      auth: contactListAuth,
      params: IdParams,
      response: { 200: ContactListItem, 403: ErrorBody, 404: ErrorBody },
      detail: { summary: 'One contact list item' },
    })
    .post('', ({ caller, body }) => createContactListItem(deps, caller.companyId, body), {
      auth: contactListAuth,
      body: CreateContactListItemBody,
      response: { 200: ContactListItem, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      detail: {
        summary: 'Add an item to a list (name 2 to 50, number 8 to 50, e-mail optional)',
        description: 'The number keeps its digits (a Brazilian one typed without 55 gets it); a number the list holds already: 409 ERR_DUPLICATED_CONTACT_LIST_ITEM. WhatsApp is asked about it in the background.',
      },
    })
    .put('/:id', ({ caller, params, body }) => updateContactListItem(deps, { companyId: caller.companyId, itemId: params.id }, body), {
      auth: contactListAuth,
      params: IdParams,
      body: UpdateContactListItemBody,
      response: { 200: ContactListItem, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Edit an item (only the fields sent change; a new number is checked with WhatsApp again)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteContactListItem(deps, { companyId: caller.companyId, itemId: params.id })
        return { ok: true as const }
      },
      { auth: contactListAuth, params: IdParams, response: { 200: DeletedResponse, 403: ErrorBody, 404: ErrorBody }, detail: { summary: 'Remove an item from its list (admins, as deleting a contact)' } },
    )
