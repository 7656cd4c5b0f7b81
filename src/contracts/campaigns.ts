// Campaign settings values both sides need (§9's option lists, the defaults): a shared contract the
// web bundle imports, so it imports nothing.

/** §9: messageInterval offers 0, 5, 10, 15 or 20 seconds. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const
/** §9: longerIntervalAfter and greaterInterval offer these (greaterInterval in seconds). */
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const

export type CampaignSettingsShape = {
  messageInterval: number
  longerIntervalAfter: number
  greaterInterval: number
  variables: { key: string; value: string }[]
  sendWindow: { enabled: boolean; start: string; end: string; weekdays: number[] }
  dailyCap: number
  warmupStart: number
  warmupIncrease: number
  jitterPercent: number
  stopWords: { pt: string[]; en: string[]; es: string[] }
}

/** §9's interval defaults (seconds), and what protects a number unless the company changes it. */
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettingsShape = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  sendWindow: { enabled: true, start: '08:00', end: '20:00', weekdays: [1, 2, 3, 4, 5, 6] },
  dailyCap: 200,
  warmupStart: 20,
  warmupIncrease: 20,
  jitterPercent: 30,
  stopWords: { pt: ['sair', 'parar', 'pare', 'cancelar'], en: ['stop', 'unsubscribe', 'quit'], es: ['salir', 'baja', 'parar', 'detener'] },
}
