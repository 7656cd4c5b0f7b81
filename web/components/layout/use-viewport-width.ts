// The window width, kept current: the drawer's behaviour depends on it (§2: 600 and 1200 px).
import { useEffect, useState } from 'react'

export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth)
  useEffect(() => {
    const update = () => setWidth(window.innerWidth)
    window.addEventListener('resize', update)
    return () => window.removeEventListener('resize', update)
  }, [])
  return width
}
