// What PostgreSQL waited on during a phase, and how much WAL it wrote: the p99 at 1,000 msg/s is often
// lost to a commit's WAL flush that took a few hundred ms on this machine's disk (session 13: every
// stall of the stores seen then had one backend in IO/WALSync and the others queued on
// LWLock/WALWrite). The sampler reads pg_stat_activity every SAMPLE_MS from a connection of its own.
import postgres from 'postgres'

const SAMPLE_MS = 20

export type WalWaits = {
  /** WAL written during the phase (the whole server's: other databases' work counts too). */
  walBytes: number
  samples: number
  /** Samples where a backend of the database waited for its WAL flush (IO/WALSync, or queued behind one on LWLock/WALWrite). */
  flushSamples: number
  /** The longest stretch of consecutive such samples, in ms (to within a sample). */
  longestFlushMs: number
}

export type WalWaitSampler = { stop(): Promise<WalWaits> }

export async function sampleWalWaits(url: string, database: string): Promise<WalWaitSampler> {
  const client = postgres(url, { max: 1, onnotice: () => {} })
  const lsn = async () => (await client<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`)[0]!.lsn
  const startLsn = await lsn()
  let samples = 0
  let flushSamples = 0
  let stretchStart: number | undefined
  let longestMs = 0
  let running = true
  const loop = (async () => {
    while (running) {
      const rows = await client<{ flushing: boolean }[]>`
        select coalesce(bool_or(wait_event in ('WALSync', 'WALWrite')), false) as flushing
        from pg_stat_activity where datname = ${database} and state = 'active' and pid <> pg_backend_pid()`
      const at = performance.now()
      samples++
      if (rows[0]?.flushing) {
        flushSamples++
        stretchStart ??= at
        longestMs = Math.max(longestMs, at - stretchStart + SAMPLE_MS)
      } else stretchStart = undefined
      await Bun.sleep(SAMPLE_MS)
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      const [row] = await client<{ bytes: string }[]>`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${startLsn}::pg_lsn)::bigint::text as bytes`
      await client.end()
      return { walBytes: Number(row!.bytes), samples, flushSamples, longestFlushMs: longestMs }
    },
  }
}
