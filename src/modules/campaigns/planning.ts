// Planning: a campaign's recipients become its shipping rows. Each row gets its message variant
// (rotated over the non-empty message1..5) and its connection (rotated over the campaign's
// connections); an invalid number is INVALID and an opted-out one OPTED_OUT from the start, so neither
// is ever sent. ON CONFLICT on (campaign, number) makes planning twice harmless (and keeps one row per
// number when a list or a tag reaches it twice). The recipients come page by page through the
// contact-lists or the tickets service (recipients.ts), 1,000 rows per INSERT.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { campaigns, campaignShipping } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { type CampaignRow } from './queries.ts'
import { findConnectionStates } from '../whatsapp/service.ts'
import { campaignRecipients } from './recipients.ts'

/** The non-empty variants, 1-based (message1 is 1). */
export function variantsOf(campaign: Pick<CampaignRow, 'message1' | 'message2' | 'message3' | 'message4' | 'message5'>): number[] {
  const messages = [campaign.message1, campaign.message2, campaign.message3, campaign.message4, campaign.message5]
  const variants = messages.flatMap((text, index) => (text.trim() ? [index + 1] : []))
  return variants.length > 0 ? variants : [1]
}

/** The connections a campaign sends on: its own, plus every connected one of the company when rotating. */
export async function campaignConnectionIds(deps: Deps, campaign: Pick<CampaignRow, 'companyId' | 'whatsappId' | 'rotateConnections'>): Promise<number[]> {
  const ids = campaign.whatsappId ? [campaign.whatsappId] : []
  if (campaign.rotateConnections) {
    for (const connection of await findConnectionStates(deps.db, { companyId: campaign.companyId, connectedOnly: true })) if (!ids.includes(connection.id)) ids.push(connection.id)
  }
  return ids
}

/** A plan this large refreshes the table's statistics (a few hundred ms for a sample). */
const ANALYZE_AFTER_ROWS = 10_000

type Plan = { companyId: number; campaignId: number; variants: number[]; connections: number[] }

/** The recipients' rows, page by page; `position` goes on across pages so the rotation does too. */
async function planRows(db: Executor, plan: Plan, target: { contactListId: number | null; tagId: number | null }): Promise<number> {
  let position = 0
  let inserted = 0
  for await (const page of campaignRecipients(db, { companyId: plan.companyId, ...target })) {
    const rows = page.map((recipient) => {
      const at = position++
      return {
        companyId: plan.companyId,
        campaignId: plan.campaignId,
        contactListItemId: recipient.itemId,
        contactId: recipient.contactId,
        whatsappId: plan.connections.length > 0 ? plan.connections[at % plan.connections.length]! : null,
        number: recipient.digits,
        name: recipient.name,
        email: recipient.email,
        variant: plan.variants[at % plan.variants.length]!,
        status: recipient.status,
      }
    })
    const written = await db.insert(campaignShipping).values(rows).onConflictDoNothing({ target: [campaignShipping.campaignId, campaignShipping.number] }).returning({ id: campaignShipping.id })
    inserted += written.length
  }
  return inserted
}

/** Plans the rows once (plannedAt); returns how many were inserted. */
export async function planShipping(deps: Deps, campaign: CampaignRow): Promise<number> {
  const plan: Plan = { companyId: campaign.companyId, campaignId: campaign.id, variants: variantsOf(campaign), connections: await campaignConnectionIds(deps, campaign) }
  const inserted = await deps.db.transaction(async (tx) => {
    // Only one planner: the row lock makes a concurrent one wait, then see plannedAt set.
    const [locked] = await tx
      .update(campaigns)
      .set({ plannedAt: deps.now() })
      .where(and(eq(campaigns.companyId, plan.companyId), eq(campaigns.id, plan.campaignId), isNull(campaigns.plannedAt)))
      .returning({ id: campaigns.id })
    if (!locked) return 0
    return planRows(tx, plan, { contactListId: campaign.contactListId, tagId: campaign.tagId })
  })
  // Many rows at once leave the planner's statistics behind (autovacuum analyzes later, and late on a
  // busy machine): without them the per-send statements (claim, confirm, receipts) were planned for a
  // small table. Measured on 100k rows: 49 sends/s before, see bench/README.md for after.
  if (inserted >= ANALYZE_AFTER_ROWS) await deps.db.execute(sql`analyze campaign_shipping`)
  return inserted
}
