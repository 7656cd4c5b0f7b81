// What other rooms may use of the campaigns module: the jobs (dispatch, sweep), the inbound side
// (receipts of campaign messages, a connection WhatsApp restricted) and the composition (listeners,
// the owner task of a send).
export { dispatchCampaign, type DispatchOptions, type DispatchResult } from './dispatcher.ts'
export { findDueCampaigns } from './queries.ts'
export { campaignDeliverTask, campaignMessageId } from './delivery.ts'
export { listenCampaignReplies, recordCampaignAck, recordConnectionRestriction, optOut } from './tracking.ts'
export { listenCampaignRealtime } from './realtime.ts'
