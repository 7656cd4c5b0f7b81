// Preloaded into the server by bench/idle-memory.ts (`bun --preload`): on SIGUSR2 it writes what the
// process holds to IDLE_MEMORY_REPORT as JSON: process.memoryUsage(), Bun's heap statistics and, on
// PGlite, the size of its WASM memory (read through the database handle src/main.ts keeps on
// globalThis). Nothing here runs unless the signal comes.
import { writeFileSync } from 'node:fs'
import { heapStats } from 'bun:jsc'

type Handle = { kind: string; db: { $client?: { mod?: { wasmMemory?: WebAssembly.Memory; HEAPU8?: Uint8Array } } } }

const reportFile = process.env.IDLE_MEMORY_REPORT
if (reportFile) {
  process.on('SIGUSR2', () => {
    void (async () => {
      const handle = await (globalThis as { __zapdeskDb?: Promise<Handle> }).__zapdeskDb
      const mod = handle?.db.$client?.mod
      const wasmBytes = handle?.kind === 'pglite' ? (mod?.wasmMemory?.buffer.byteLength ?? mod?.HEAPU8?.buffer.byteLength) : undefined
      const heap = heapStats()
      writeFileSync(
        reportFile,
        JSON.stringify({
          memory: process.memoryUsage(),
          heap: { heapSize: heap.heapSize, heapCapacity: heap.heapCapacity, extraMemorySize: heap.extraMemorySize, objectCount: heap.objectCount },
          wasmBytes,
          modules: Object.keys(require.cache).length,
        }),
      )
    })()
  })
}
