// The AI prompt and integration a connection or a queue answers with (§3): each select only where the
// plan has the feature, so that an admin is never refused on a field he cannot see.
import { useLingui } from '@lingui/react/macro'
import { IntegrationChoices } from './integration-choices.tsx'
import { PromptChoices } from './prompt-choices.tsx'

export type AiReferenceFieldsProps = {
  shown: { prompt: boolean; integration: boolean }
  promptId: number | null
  integrationId: number | null
  onPromptChange: (promptId: number | null) => void
  onIntegrationChange: (integrationId: number | null) => void
  errorOf: (field: 'promptId' | 'integrationId') => string | undefined
}

export function AiReferenceFields({ shown, promptId, integrationId, onPromptChange, onIntegrationChange, errorOf }: AiReferenceFieldsProps) {
  const { t } = useLingui()
  return (
    <>
      {shown.prompt ? <PromptChoices label={t`AI prompt`} noneLabel={t`No prompt`} value={promptId} onChange={onPromptChange} error={errorOf('promptId')} /> : null}
      {shown.integration ? <IntegrationChoices label={t`Integration`} value={integrationId} onChange={onIntegrationChange} error={errorOf('integrationId')} /> : null}
    </>
  )
}
