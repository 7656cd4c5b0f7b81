// The head of an admin page: its title (also the document title), an optional search box with the
// debounce of the lists (500 ms) and the page's action buttons.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type ReactNode } from 'react'
import { Input, SearchField } from 'react-aria-components'
import { usePageTitle } from './providers.tsx'
import { SearchIcon } from './icons.tsx'

export const SEARCH_DEBOUNCE_MS = 500

export type PageHeaderProps = {
  title: string
  /** Called with the trimmed search text, debounced; omit for no search box. */
  onSearch?: (text: string) => void
  searchLabel?: string
  children?: ReactNode
}

export function PageHeader({ title, onSearch, searchLabel, children }: PageHeaderProps) {
  const { t } = useLingui()
  usePageTitle(title)
  return (
    <header className="page-header">
      <h1 className="page-title">{title}</h1>
      <div className="page-header-actions">
        {onSearch ? <DebouncedSearch label={searchLabel ?? t`Search`} onSearch={onSearch} /> : null}
        {children}
      </div>
    </header>
  )
}

/** The lists' search box: calls `onSearch` with the trimmed text once typing pauses for 500 ms. */
export function DebouncedSearch({ label, onSearch }: { label: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
    // onSearch is a fresh closure on every render; only the text restarts the debounce.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
  return (
    <SearchField className="page-search" aria-label={label} value={text} onChange={setText}>
      <SearchIcon className="page-search-icon" />
      <Input className="page-search-input" placeholder={label} />
    </SearchField>
  )
}
