// The WhatsApp checks of contact list items as a repeating job: every minute it resumes the items
// still unchecked (src/modules/contact-lists/whatsapp-check.ts) - those left by a restart, or waiting
// for a connection. New items start their checks at once without it; this is the safety net.
import { t } from 'elysia'
import type { ConnectionRegistry } from '../src/channels/provider.ts'
import type { Deps } from '../src/modules/deps.ts'
import { checkAllPendingContactListItems } from '../src/modules/contact-lists/service.ts'
import type { JobDefinition, JobQueue } from './queue.ts'

export const contactListChecksEveryMs = 60_000

const SweepPayload = t.Object({})

export function contactListChecksJob(deps: Deps, registry: ConnectionRegistry): JobDefinition<typeof SweepPayload> {
  return {
    name: 'contact-list-items.check-whatsapp',
    payload: SweepPayload,
    // A missed run is made up by the next one.
    attempts: 1,
    handle: async () => {
      const result = await checkAllPendingContactListItems(deps, registry)
      if (result.checked > 0) deps.logger.info('contact list numbers checked', result)
    },
  }
}

export async function startContactListChecks(deps: Deps, registry: ConnectionRegistry, queue: JobQueue): Promise<void> {
  const job = contactListChecksJob(deps, registry)
  queue.register(job)
  await queue.repeat(job, {}, { id: 'contact-list-checks', everyMs: contactListChecksEveryMs })
}
