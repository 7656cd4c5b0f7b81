// The integration select of the connection and queue forms (§3: a connection's `integration`, a
// queue's integrationId): "None" plus the company's integrations by name, kept current by the
// `queueIntegration` channel. Integrations are an admin tool of plans with useIntegrations: without
// the feature only "None" is offered and nothing is asked of the server (it would refuse).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import type { IntegrationType } from '../../src/modules/queue-integrations/model.ts'
import { api } from '../api/client.ts'
import { useChannel } from '../hooks/use-channel.ts'
import { planFeaturesAtom } from '../state/session.ts'
import { Select, type SelectOption } from './select.tsx'

export type IntegrationChoice = { id: number; name: string; type: IntegrationType }


/** The key of "None" in the select (integration ids are numbers). */
export const NO_INTEGRATION = 'none'
/** GET /queueIntegration pages 20 at a time; a company with more than 500 gets the first 500 by name. */
const MAX_PAGES = 25

export type IntegrationChoicesProps = {
  label: string
  /** The chosen integration's id; null for none. */
  value: number | null
  onChange: (integrationId: number | null) => void
  error?: string
  name?: string
  isDisabled?: boolean
}

function byName(first: IntegrationChoice, second: IntegrationChoice): number {
  return first.name.localeCompare(second.name, undefined, { sensitivity: 'base' }) || first.id - second.id
}

/** The company's integrations for a select, or [] while loading, on failure and without the feature. */
export function useIntegrationChoices(): IntegrationChoice[] {
  const features = useAtomValue(planFeaturesAtom)
  const enabled = features?.useIntegrations === true
  const [choices, setChoices] = useState<IntegrationChoice[]>([])

  useEffect(() => {
    if (!enabled) return
    let current = true
    void (async () => {
      const loaded: IntegrationChoice[] = []
      for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
        const { data, error } = await api.queueIntegration.get({ query: { pageNumber } })
        if (!current || error || !data) return
        loaded.push(...data.queueIntegrations.map(({ id, name, type }) => ({ id, name, type })))
        if (!data.hasMore) break
      }
      if (current) setChoices(loaded)
    })().catch(() => undefined)
    return () => {
      current = false
    }
  }, [enabled])

  useChannel('queueIntegration', (event) => {
    if (event.action === 'delete') {
      setChoices((list) => list.filter((choice) => choice.id !== event.integrationId))
      return
    }
    const { id, name, type } = event.queueIntegration
    setChoices((list) => [...list.filter((choice) => choice.id !== id), { id, name, type }].sort(byName))
  })

  return enabled ? choices : []
}

export function IntegrationChoices({ label, value, onChange, error, name, isDisabled }: IntegrationChoicesProps) {
  const { t } = useLingui()
  const choices = useIntegrationChoices()
  // A chosen integration not in the list (still loading, or beyond the first 500) keeps a row of its own.
  const unlisted = value !== null && !choices.some((choice) => choice.id === value) ? value : null
  const options: SelectOption[] = [
    { id: NO_INTEGRATION, label: t`None` },
    ...choices.map((choice) => ({ id: choice.id, label: choice.name })),
    ...(unlisted === null ? [] : [{ id: unlisted, label: t`Integration #${unlisted}` }]),
  ]
  return (
    <Select
      label={label}
      name={name}
      options={options}
      value={value ?? NO_INTEGRATION}
      onChange={(key) => onChange(typeof key === 'number' ? key : null)}
      error={error}
      isDisabled={isDisabled}
    />
  )
}
