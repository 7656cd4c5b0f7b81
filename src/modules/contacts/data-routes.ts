// Data-subject requests about one contact (LGPD/GDPR, admins only): download everything the company
// holds about him, or erase him with his messages and files. Beside the plain DELETE /contacts/:id,
// which keeps its contract (the inbox's delete) while erasure also removes files, group messages and
// campaign-list rows, and answers what it removed.
import { Elysia, t } from 'elysia'
import { tenant } from '../../core/tenant.ts'
import type { Deps } from '../deps.ts'
import { exportContactData } from './data-export.ts'
import { eraseContact } from './erase.ts'
import { IdParams } from './model.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const EraseResponse = t.Object({
  ok: t.Literal(true),
  tickets: t.Integer({ description: 'Tickets removed' }),
  messages: t.Integer({ description: 'Messages removed (his tickets and his messages in groups)' }),
  files: t.Integer({ description: 'Media files removed from storage' }),
})

export const contactDataRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/contacts', tags: ['Contacts'] })
    .use(tenant(deps))
    .get(
      '/:id/data-export',
      async ({ caller, params }) => {
        const file = await exportContactData(deps, { companyId: caller.companyId, contactId: params.id })
        return new Response(file.body, {
          headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${file.fileName}"`, 'cache-control': 'no-store' },
        })
      },
      {
        auth: 'admin',
        params: IdParams,
        detail: {
          summary: 'Everything about a contact, as a zip (data-subject access request; admins)',
          description:
            'contact.json: the contact, his extra fields, his tickets (tags, notes, tracking, ratings), schedules and every message with its metadata (mediaFile names the file in the archive; mediaMissing when the file is no longer on disk); media/<message id>-<name>: the files. Streamed as it is read. 403 for agents, 404 for a contact of another company.',
          responses: {
            200: { description: 'The zip (Content-Disposition: attachment)', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
            403: { description: 'ERR_NO_PERMISSION' },
            404: { description: 'ERR_NO_CONTACT_FOUND' },
          },
        },
      },
    )
    .delete(
      '/:id/erase',
      async ({ caller, params }) => ({ ok: true as const, ...(await eraseContact(deps, { companyId: caller.companyId, contactId: params.id })) }),
      {
        auth: 'admin',
        params: IdParams,
        response: { 200: EraseResponse, 403: ErrorBody, 404: ErrorBody },
        detail: {
          summary: 'Erase a contact with his tickets, messages and media files (data-subject erasure request; admins)',
          description:
            'Removes the contact, his tickets with their messages, notes, tracking and ratings, his schedules, his messages in group tickets, his rows in campaign contact lists (same number) and every media file of those messages and schedules. Open inboxes receive contact.deleted and ticket.deleted. Irreversible; a second call answers 404.',
        },
      },
    )
