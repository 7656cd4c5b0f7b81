// The search tab's filters (§2): the text (applied 500 ms after typing stops), tags, and users for admins.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { TextField } from '../../components/text-field.tsx'
import { MultiSelect, type MultiOption } from './multi-select.tsx'
import { SearchIcon } from './ticket-icons.tsx'
import type { SearchFilters } from './use-ticket-lists.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export const SEARCH_DEBOUNCE_MS = 500

export function SearchBar({ isAdmin, onChange }: { isAdmin: boolean; onChange: (filters: SearchFilters) => void }) {
  const { t, i18n } = useLingui()
  const [text, setText] = useState('')
  const [appliedText, setAppliedText] = useState('')
  const [tagIds, setTagIds] = useState<number[]>([])
  const [userIds, setUserIds] = useState<number[]>([])
  const [tags, setTags] = useState<MultiOption[]>([])
  const [users, setUsers] = useState<MultiOption[]>([])

  useEffect(() => {
    const timer = setTimeout(() => setAppliedText(text), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])

  useEffect(() => onChange({ text: appliedText, tagIds, userIds }), [appliedText, tagIds, userIds, onChange])

  useEffect(() => {
    let current = true
    void api.tags.list.get({ query: {} }).then(({ data, error }) => {
      if (!current) return
      if (error || !data) toastFailure(i18n, error)
      else setTags(data.map((tag) => ({ id: tag.id, label: tag.name, color: tag.color })))
    })
    if (isAdmin) {
      void api.users.list.get({ query: {} }).then(({ data, error }) => {
        if (!current) return
        if (error || !data) toastFailure(i18n, error)
        else setUsers(data.map((user) => ({ id: user.id, label: user.name })))
      })
    }
    return () => {
      current = false
    }
  }, [isAdmin, i18n])

  return (
    <div className="ticket-search" role="search">
      <TextField
        className="ticket-search-text"
        label={t`Search tickets`}
        value={text}
        onChange={setText}
        type="search"
        placeholder={t`Name, number or message`}
        trailing={<SearchIcon className="ticket-search-icon" />}
        autoFocus
      />
      <div className="ticket-search-filters">
        <MultiSelect label={t`Tags`} options={tags} selected={tagIds} onChange={setTagIds} />
        {isAdmin ? <MultiSelect label={t`Users`} options={users} selected={userIds} onChange={setUserIds} /> : null}
      </div>
    </div>
  )
}
