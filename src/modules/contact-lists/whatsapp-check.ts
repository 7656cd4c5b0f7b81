// Whether each list item's number is on WhatsApp (isWhatsappValid), asked in the background: an
// upload answers at once and the items turn valid or invalid on the page as the answers come back.
// The provider's checkNumber goes through the registry, which reaches the instance that owns the
// session when it is not this one. The checks are paced per connection: WhatsApp flags an account
// that looks up thousands of numbers in a burst, so one connection asks at most CHECKS_PER_SECOND.
// The state is the database's (whatsapp_checked_at null = still to check): a restart loses nothing,
// the repeating sweep (jobs/contact-list-checks.ts) resumes what was left, and checking twice is harmless.
import type { ConnectionRegistry, WhatsAppProvider } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { findCompaniesWithUncheckedItems, findConnectedWhatsappIds, findItemsByIds, findUncheckedItems, markItemsChecked } from './queries.ts'
import { showContactList } from './service.ts'

/** Look-ups per second on one connection. */
export const CHECKS_PER_SECOND = 5
/** Items read and answered together: one UPDATE per verdict and one frame per list for each batch. */
const CHECK_BATCH = 20

/** When each connection may ask next (this process's pacing; the sweep runs on one instance at a time). */
const nextCheckAt = new Map<number, number>()

async function paced(whatsappId: number): Promise<void> {
  const now = Date.now()
  const at = Math.max(now, nextCheckAt.get(whatsappId) ?? 0)
  nextCheckAt.set(whatsappId, at + 1000 / CHECKS_PER_SECOND)
  if (at > now) await Bun.sleep(at - now)
}

function liveProvider(registry: ConnectionRegistry, companyId: number, whatsappIds: number[]): WhatsAppProvider | undefined {
  for (const whatsappId of whatsappIds) {
    try {
      return registry.providerFor({ companyId, whatsappId })
    } catch {
      // Not connected here nor elsewhere: the next one may be.
    }
  }
  return undefined
}

async function announceBatch(deps: Deps, companyId: number, itemIds: number[]): Promise<void> {
  const items = await findItemsByIds(deps.db, { companyId, itemIds })
  const byList = new Map<number, typeof items>()
  for (const item of items) byList.set(item.contactListId, [...(byList.get(item.contactListId) ?? []), item])
  for (const [contactListId, listItems] of byList) {
    // The list was deleted meanwhile: nobody shows its items any more.
    const contactList = await showContactList(deps, { companyId, contactListId }).catch(() => undefined)
    if (contactList) deps.bus.emit('contact_list_items.checked', { companyId, contactListId, items: listItems, contactList })
  }
}

/**
 * Checks the company's pending items until none is left or no connection can ask. A number whose
 * look-up fails (a timeout, the session dropping) stays pending for the next run.
 */
export async function checkPendingContactListItems(deps: Deps, registry: ConnectionRegistry, companyId: number): Promise<{ checked: number }> {
  let checked = 0
  for (;;) {
    const provider = liveProvider(registry, companyId, await findConnectedWhatsappIds(deps.db, companyId))
    if (!provider) return { checked }
    const pending = await findUncheckedItems(deps.db, { companyId, limit: CHECK_BATCH })
    if (pending.length === 0) return { checked }
    const validIds: number[] = []
    const invalidIds: number[] = []
    let failed = false
    for (const item of pending) {
      await paced(provider.whatsappId)
      try {
        const answer = await provider.checkNumber(item.number)
        ;(answer.exists ? validIds : invalidIds).push(item.id)
      } catch (error) {
        deps.logger.warn('contact list number check failed', { companyId, whatsappId: provider.whatsappId, error })
        failed = true
        break
      }
    }
    await markItemsChecked(deps.db, { companyId, validIds, invalidIds, checkedAt: deps.now() })
    checked += validIds.length + invalidIds.length
    if (validIds.length + invalidIds.length > 0) await announceBatch(deps, companyId, [...validIds, ...invalidIds])
    if (failed) return { checked }
  }
}

/** Every company's pending items (the repeating sweep: after a restart, or once a session comes up). */
export async function checkAllPendingContactListItems(deps: Deps, registry: ConnectionRegistry): Promise<{ checked: number }> {
  let checked = 0
  for (const companyId of await findCompaniesWithUncheckedItems(deps.db)) checked += (await runOnce(deps, registry, companyId)).checked
  return { checked }
}

/** One run per company at a time in this process; a request while one runs makes it go round once more. */
const running = new Map<number, { again: boolean; done: Promise<{ checked: number }> }>()

function runOnce(deps: Deps, registry: ConnectionRegistry, companyId: number): Promise<{ checked: number }> {
  const current = running.get(companyId)
  if (current) {
    current.again = true
    return current.done
  }
  const state = { again: false, done: Promise.resolve({ checked: 0 }) }
  state.done = (async () => {
    let checked = 0
    try {
      do {
        state.again = false
        checked += (await checkPendingContactListItems(deps, registry, companyId)).checked
      } while (state.again)
    } catch (error) {
      deps.logger.error('contact list checks failed', { companyId, error })
    } finally {
      running.delete(companyId)
    }
    return { checked }
  })()
  running.set(companyId, state)
  return state.done
}

/** Starts the checks when items arrive (one by one or in bulk) and when a connection comes up. Returns the unsubscribe. */
export function wireContactListChecks(deps: Deps, registry: ConnectionRegistry): () => void {
  const kick = (companyId: number) => void runOnce(deps, registry, companyId)
  const stops = [
    deps.bus.on('contact_list.items_added', (event) => kick(event.companyId)),
    deps.bus.on('contact_list_item.changed', (event) => {
      if (event.action !== 'delete' && event.item.whatsappCheckedAt === null) kick(event.companyId)
    }),
    deps.bus.on('whatsapp.session_changed', (event) => {
      if (event.session.status === 'CONNECTED' && event.connectionChanged) kick(event.companyId)
    }),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

/** The run in progress for the company, if any (tests await it instead of sleeping). */
export function contactListChecksOf(companyId: number): Promise<{ checked: number }> | undefined {
  return running.get(companyId)?.done
}
