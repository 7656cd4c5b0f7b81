// Which option changes heard on the `queue` channel the option editor must apply. Every change is
// published to the whole company, the editor's own included (README "Realtime": an `update` of the
// queue with `options: {action, optionIds}`). The editor reads its tree again after each own change,
// so its own echoes are skipped; a change heard while an own change is still running may have landed
// after that change's reload, so it asks for one more read when the own change ends.

export type OptionsChange = { action: 'create' | 'update' | 'delete'; optionIds: number[] }

/** What the `queue` channel carries; only an `update` with `options` concerns the editor. */
export type QueueChannelFrame = { action: string; queue?: { id: number }; queueId?: number; options?: OptionsChange }

/** 'own': the echo of this editor's change; 'after': heard during an own change; 'other': someone else's. */
export type Verdict = 'own' | 'after' | 'other'

/** How many signatures are kept: a lost echo must not make a later change by someone else look like ours. */
const KEPT = 20

function signatureOf(change: OptionsChange): string {
  return `${change.action}:${[...change.optionIds].sort((a, b) => a - b).join(',')}`
}

function take(list: string[], signature: string): boolean {
  const at = list.indexOf(signature)
  if (at === -1) return false
  list.splice(at, 1)
  return true
}

function keep(list: string[], signature: string): void {
  list.push(signature)
  if (list.length > KEPT) list.shift()
}

export class OwnOptionChanges {
  /** Own changes the server confirmed whose echo has not been heard yet. */
  private awaited: string[] = []
  /** Changes heard while own changes were running, before the server confirmed them. */
  private early: string[] = []
  private running = 0
  private heardMeanwhile = false

  /** An own change (its requests and the reload after them) begins. */
  start(): void {
    this.running += 1
  }

  /** The server confirmed an own change: its echo is ours, whether heard already or still to come. */
  confirmed(change: OptionsChange): void {
    const signature = signatureOf(change)
    if (!take(this.early, signature)) keep(this.awaited, signature)
  }

  /** The own change ended; true when something was heard meanwhile that its reload may have missed. */
  finish(): boolean {
    this.running = Math.max(0, this.running - 1)
    if (this.running > 0 || !this.heardMeanwhile) return false
    this.heardMeanwhile = false
    return true
  }

  heard(change: OptionsChange): Verdict {
    const signature = signatureOf(change)
    if (take(this.awaited, signature)) return 'own'
    if (this.running > 0) {
      keep(this.early, signature)
      this.heardMeanwhile = true
      return 'after'
    }
    return 'other'
  }
}

/** The option change a frame reports for this queue, if any. */
export function optionsChangeFor(frame: QueueChannelFrame, queueId: number): OptionsChange | undefined {
  if (frame.action !== 'update' || frame.queue?.id !== queueId || !frame.options) return undefined
  return frame.options
}
