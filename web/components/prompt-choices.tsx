// A single choice among the company's AI prompts (connection and queue forms: promptId), with an
// optional "none". It loads GET /prompt itself, only for an admin of a plan with useOpenAi (anyone
// else would get a 403); then, or when the load fails, it offers no prompt: the forms work without one.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import { api } from '../api/client.ts'
import { useChannel } from '../hooks/use-channel.ts'
import { planFeaturesAtom, sessionUserAtom } from '../state/session.ts'
import { Select } from './select.tsx'
import { isAdmin } from '../../src/contracts/roles.ts'

export type PromptChoice = { id: number; name: string }

const NONE = 'none'

export type PromptChoicesProps = {
  label: string
  value: number | null
  onChange: (promptId: number | null) => void
  /** The "no prompt" option's text; without it the field has no such option. */
  noneLabel?: string
  error?: string
  isDisabled?: boolean
  name?: string
  /** Given prompts instead of loading them (a page that already holds the list). */
  prompts?: PromptChoice[]
}

/** The company's prompts by name, light; [] when the plan or the role does not allow them. */
export function usePromptChoices(enabled = true): PromptChoice[] {
  const user = useAtomValue(sessionUserAtom)
  const features = useAtomValue(planFeaturesAtom)
  const allowed = enabled && isAdmin(user) && features?.useOpenAi === true
  const [prompts, setPrompts] = useState<PromptChoice[]>([])
  useEffect(() => {
    if (!allowed) return
    let current = true
    api.prompt
      .get()
      .then(({ data }) => {
        if (current && data) setPrompts(data.prompts.map(({ id, name }) => ({ id, name })))
      })
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [allowed])
  // Kept live by the `prompt` channel (admins only), so a prompt made in another tab can be chosen.
  useChannel('prompt', (event) => {
    setPrompts((current) => {
      const others = current.filter((prompt) => prompt.id !== (event.action === 'delete' ? event.promptId : event.prompt.id))
      if (event.action === 'delete') return others
      return [...others, { id: event.prompt.id, name: event.prompt.name }].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : left.id - right.id))
    })
  })
  return allowed ? prompts : []
}

export function PromptChoices({ label, value, onChange, noneLabel, error, isDisabled, name, prompts: given }: PromptChoicesProps) {
  const { t } = useLingui()
  const loaded = usePromptChoices(given === undefined)
  const prompts = given ?? loaded
  const options = [...(noneLabel ? [{ id: NONE, label: noneLabel }] : []), ...prompts.map((prompt) => ({ id: String(prompt.id), label: prompt.name }))]
  // A prompt not (or no longer) in the list shows as none rather than as a blank selection.
  const known = value !== null && prompts.some((prompt) => prompt.id === value)
  return (
    <Select
      label={label}
      name={name}
      options={options}
      value={known ? String(value) : noneLabel ? NONE : null}
      onChange={(key) => onChange(key === null || key === NONE ? null : Number(key))}
      placeholder={t`Select a prompt`}
      error={error}
      isDisabled={isDisabled}
    />
  )
}
