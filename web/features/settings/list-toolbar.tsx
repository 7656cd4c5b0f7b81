// The head of a list tab: the lists' debounced search box (§9) and the tab's buttons.
import type { ReactNode } from 'react'
import { DebouncedSearch } from '../../components/page-header.tsx'

export type ListToolbarProps = { searchLabel?: string; onSearch?: (text: string) => void; children?: ReactNode }

export function ListToolbar({ searchLabel, onSearch, children }: ListToolbarProps) {
  return (
    <div className="settings-toolbar">
      {onSearch ? <DebouncedSearch label={searchLabel ?? ''} onSearch={onSearch} /> : null}
      <div className="settings-toolbar-actions">{children}</div>
    </div>
  )
}
