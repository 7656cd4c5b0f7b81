// Planning: a campaign's recipients become its shipping rows, in one INSERT ... SELECT (100k rows are
// one statement, not 100k round trips). Each row gets its message variant (rotated over the non-empty
// message1..5) and its connection (rotated over the campaign's connections); an invalid number is
// INVALID and an opted-out one OPTED_OUT from the start, so neither is ever sent. ON CONFLICT on
// (campaign, number) makes planning twice harmless.
import { and, eq, isNull, sql } from 'drizzle-orm'
import { campaigns } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { findConnectedConnections, recipientsSql, type CampaignRow } from './queries.ts'

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
    for (const connection of await findConnectedConnections(deps.db, campaign.companyId)) if (!ids.includes(connection.id)) ids.push(connection.id)
  }
  return ids
}

const intArray = (values: number[]) => sql`array[${sql.join(values.map((value) => sql`${value}::int`), sql`, `)}]::int[]`

/** Plans the rows once (plannedAt); returns how many were inserted. */
export async function planShipping(deps: Deps, campaign: CampaignRow): Promise<number> {
  const variants = variantsOf(campaign)
  const connections = await campaignConnectionIds(deps, campaign)
  const connectionArray = connections.length > 0 ? intArray(connections) : sql`array[null]::int[]`
  const companyId = campaign.companyId
  const inserted = await deps.db.transaction(async (tx) => {
    // Only one planner: the row lock makes a concurrent one wait, then see plannedAt set.
    const [locked] = await tx
      .update(campaigns)
      .set({ plannedAt: deps.now() })
      .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaign.id), isNull(campaigns.plannedAt)))
      .returning({ id: campaigns.id })
    if (!locked) return 0
    const result = await tx.execute(sql`
      insert into campaign_shipping (company_id, campaign_id, contact_list_item_id, contact_id, whatsapp_id, number, name, email, variant, status)
      select ${companyId}, ${campaign.id}, r.item_id, r.contact_id,
        (${connectionArray})[((r.position - 1) % ${Math.max(connections.length, 1)}) + 1],
        r.digits, r.name, r.email,
        (${intArray(variants)})[((r.position - 1) % ${variants.length}) + 1],
        case
          when length(r.digits) not between 8 and 15 then 'INVALID'
          when exists (select 1 from campaign_opt_outs o where o.company_id = ${companyId} and o.number = r.digits) then 'OPTED_OUT'
          else 'PENDING'
        end
      from (select recipients.*, row_number() over (order by recipients.digits) as position from (${recipientsSql(campaign)}) recipients) r
      on conflict (campaign_id, number) do nothing`)
    return affectedRows(result)
  })
  return inserted
}

/** The row count of an INSERT, as either driver reports it. */
function affectedRows(result: unknown): number {
  const value = result as { count?: number; affectedRows?: number }
  return Number(value.count ?? value.affectedRows ?? 0)
}
