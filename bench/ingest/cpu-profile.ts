// Profiling aid (--cpu-profile=<file>): a JavaScriptCore sampling profile of the throughput run alone,
// written as a .cpuprofile (Chrome DevTools' format). `bun --cpu-prof` covers the whole process, from
// the setup to the raw ceiling, and counts the idle waits; this one starts and stops with the run.
// bench/README.md ("session 14") shows how its samples were read.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

export type CpuProfile = { stop(): Promise<void> }

export async function startCpuProfile(file: string): Promise<CpuProfile> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 500 })
  await session.post('Profiler.start')
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop')
      writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
    },
  }
}
