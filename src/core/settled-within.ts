// Waiting for work with a deadline (a graceful stop drains jobs and requests for at most so long).

/** Resolves when the work settles (fulfilled or not) or after ms, whichever comes first; true when it settled. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  try {
    return await Promise.race([work.then(() => true, () => true), deadline])
  } finally {
    clearTimeout(timer)
  }
}
