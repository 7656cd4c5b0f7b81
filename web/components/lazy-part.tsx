// Parts a page does not need for its first paint (popovers, menus, dialogs, panels opened on demand):
// each in a chunk of its own, not among the scripts the HTML shell preloads. The chunk is fetched when
// the part first renders; until it arrives the part shows `fallback` (nothing, by default: a closed
// overlay shows nothing anyway). An overlay whose element stays rendered while closed (a Popover inside
// a MenuTrigger or DialogTrigger) is thus fetched right after the page's first render, beside its first
// requests, and opens at once when pressed; one rendered only once opened is fetched on that press and
// opens as soon as it arrives, moving the focus into itself as before.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'

export function lazyPart<Props extends object>(load: () => Promise<ComponentType<Props>>, fallback: ReactNode = null): ComponentType<Props> {
  const Part = lazy(async () => ({ default: await load() })) as unknown as ComponentType<Props>
  function LazyPart(props: Props) {
    return (
      <Suspense fallback={fallback}>
        <Part {...props} />
      </Suspense>
    )
  }
  return LazyPart
}
