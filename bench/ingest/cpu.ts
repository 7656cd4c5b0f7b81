// Where the CPU went during a phase: this process (pipeline, app and socket probes), the PostgreSQL
// backends serving the benchmark's database, and the whole machine (other work on it is noise).
import { readFileSync } from 'node:fs'
import type postgres from 'postgres'

const ticksPerSecond = 100

/** utime + stime of a process in ms, or 0 when it is gone or unreadable. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may hold spaces: the fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
  } catch {
    return 0
  }
}

/** Busy and total jiffies of all cores, from /proc/stat. */
function machineJiffies(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
    const values = line.trim().split(/\s+/).slice(1).map(Number)
    const total = values.reduce((sum, value) => sum + value, 0)
    const idle = (values[3] ?? 0) + (values[4] ?? 0)
    return { busy: total - idle, total }
  } catch {
    return { busy: 0, total: 0 }
  }
}

export type CpuSample = { at: number; own: number; backends: Map<number, number>; machine: { busy: number; total: number } }

export type CpuUse = {
  wallMs: number
  /** CPU ms of this Bun process. */
  ownMs: number
  /** CPU ms of the PostgreSQL backends connected to the benchmark's database. */
  postgresMs: number
  /** Share of all cores busy, whoever used them (0-100). */
  machineBusyPercent: number
}

export class CpuMeter {
  constructor(
    private readonly client: postgres.Sql,
    private readonly database: string,
  ) {}

  private async backendPids(): Promise<number[]> {
    const rows = await this.client<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${this.database}`
    return rows.map((row) => row.pid)
  }

  async sample(): Promise<CpuSample> {
    const pids = await this.backendPids()
    const usage = process.cpuUsage()
    return {
      at: performance.now(),
      own: (usage.user + usage.system) / 1000,
      backends: new Map(pids.map((pid) => [pid, processCpuMs(pid)])),
      machine: machineJiffies(),
    }
  }

  async since(start: CpuSample): Promise<CpuUse> {
    const end = await this.sample()
    let postgresMs = 0
    // Backends that came and went in between are missed; the pool keeps its connections, so few are.
    for (const [pid, ms] of end.backends) postgresMs += Math.max(0, ms - (start.backends.get(pid) ?? 0))
    const total = end.machine.total - start.machine.total
    return {
      wallMs: end.at - start.at,
      ownMs: end.own - start.own,
      postgresMs,
      machineBusyPercent: total > 0 ? (100 * (end.machine.busy - start.machine.busy)) / total : Number.NaN,
    }
  }
}
