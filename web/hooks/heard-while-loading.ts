// The changes a live list hears while a read of it travels. The server may have read the list before
// a change whose frame (or request answer) reaches the page first; replacing the list with the read
// would lose it. So while a read is under way each change is also kept, and applied again, in order,
// to what the read brings. Applied in order, the last change to an item decides, as it did live.
import { useRef } from 'react'

export type Update<State> = (state: State) => State

export type HeardWhileLoading<State> = {
  /** A read starts: changes are kept from now on (those of an earlier read are dropped). */
  start: () => void
  /** A change: kept while a read travels, and handed back to apply now. */
  heard: (update: Update<State>) => Update<State>
  /** The read arrived: what it brought with the changes heard meanwhile applied again. */
  finish: (loaded: State) => State
  /** The read failed or was superseded: nothing more to keep. */
  drop: () => void
}

/** The keeper itself, apart from React (one per list; the hook holds one for the component's life). */
export function createHeardWhileLoading<State>(): HeardWhileLoading<State> {
  let kept: Update<State>[] | null = null
  return {
    start: () => {
      kept = []
    },
    heard: (update) => {
      kept?.push(update)
      return update
    },
    finish: (loaded) => {
      const updates = kept ?? []
      kept = null
      return updates.reduce((state, update) => update(state), loaded)
    },
    drop: () => {
      kept = null
    },
  }
}

export function useHeardWhileLoading<State>(): HeardWhileLoading<State> {
  const keeper = useRef<HeardWhileLoading<State> | null>(null)
  keeper.current ??= createHeardWhileLoading<State>()
  return keeper.current
}
