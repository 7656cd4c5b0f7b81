// A progress bar on stderr, drawn only when stderr is a terminal: piped output (scripts, --json,
// tests) stays clean.
export type Progress = { update(done: number): void; done(): void }

export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total <= 0) return { update() {}, done() {} }
  const width = 30
  const draw = (done: number) => {
    const filled = Math.round((Math.min(done, total) / total) * width)
    stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`)
  }
  draw(0)
  return {
    update: draw,
    done() {
      draw(total)
      stream.write('\n')
    },
  }
}
