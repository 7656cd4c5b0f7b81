// /prompts (§2 Other screens "Prompts"): title, add, and the table of name, queue, max tokens and
// actions; the prompt modal to add and edit; delete asks for confirmation naming the prompt. Live from
// the `prompt` channel (and `queue`, for the queue names). Admins of a plan with useOpenAi only (the
// island's PageGate; the server refuses everyone else too).
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { ChatIcon, EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useQueues } from '../queues/use-queues.ts'
import type { PromptRow } from './prompt-row.ts'
import { usePrompts } from './use-prompts.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const TryPromptDialog = lazyPart(() => import('./try-prompt-dialog.tsx').then((module) => module.TryPromptDialog))
const PromptDialog = lazyPart(() => import('./prompt-dialog.tsx').then((module) => module.PromptDialog))

/** The company's AI tokens (answers to customers and tries), refreshed after each try. */
function useAiUsage() {
  const [totalTokens, setTotalTokens] = useState<number | null>(null)
  const refresh = useCallback(async () => {
    try {
      const { data } = await api.prompt.usage.get({ query: {} })
      if (data) setTotalTokens(data.totalTokens)
    } catch {
      // The usage line is informative: the page works without it.
    }
  }, [])
  useEffect(() => void refresh(), [refresh])
  return { totalTokens, refresh }
}

export function PromptsPage() {
  const { t, i18n } = useLingui()
  const list = usePrompts()
  const { queues } = useQueues()
  const [editing, setEditing] = useState<{ promptId: number | null } | null>(null)
  const [deleting, setDeleting] = useState<PromptRow | null>(null)
  const [trying, setTrying] = useState<PromptRow | null>(null)
  const usage = useAiUsage()

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    try {
      const { error } = await api.prompt({ id: deleting.id }).delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      list.remove(deleting.id)
      // §7: the delete's answer is shown as an info toast (in the page's language, not the server's).
      showToast('info', t`Prompt deleted.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  const columns = useMemo<AdminColumn<PromptRow>[]>(
    () => [
      { id: 'name', header: () => t`Name`, cell: ({ row }) => row.original.name },
      { id: 'queue', header: () => t`Queue`, cell: ({ row }) => row.original.queue?.name ?? <span className="muted-note">{t`No queue`}</span> },
      { id: 'maxTokens', header: () => t`Max tokens`, cell: ({ row }) => row.original.maxTokens, meta: { align: 'end' } },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) => <PromptActions prompt={row.original} onTry={setTrying} onEdit={(prompt) => setEditing({ promptId: prompt.id })} onDelete={setDeleting} />,
      },
    ],
    [t],
  )

  const deletingName = deleting?.name ?? ''
  const tokens = usage.totalTokens === null ? '' : i18n.number(usage.totalTokens)
  return (
    <div className="admin-page">
      <PageHeader title={t`Prompts`}>
        <Button onPress={() => setEditing({ promptId: null })}>
          <PlusIcon />
          {t`Add prompt`}
        </Button>
      </PageHeader>
      {usage.totalTokens !== null && <p className="muted-note prompt-usage">{t`Tokens used by AI answers and tries: ${tokens}`}</p>}
      <DataTable
        label={t`Prompts`}
        columns={columns}
        rows={list.prompts}
        rowId={(prompt) => prompt.id}
        emptyText={t`No prompts yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
      />
      <PromptDialog
        isOpen={editing !== null}
        promptId={editing?.promptId ?? null}
        queues={queues}
        onOpenChange={(isOpen) => !isOpen && setEditing(null)}
        onSaved={list.upsert}
      />
      <TryPromptDialog prompt={trying} onOpenChange={(isOpen) => !isOpen && setTrying(null)} onUsed={() => void usage.refresh()} />
      <ConfirmDialog
        title={t`Delete prompt`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete the prompt ${deletingName}?`}</p>
        <p className="muted-note">{t`The queues and connections that use it will answer without it.`}</p>
      </ConfirmDialog>
    </div>
  )
}

type PromptActionsProps = { prompt: PromptRow; onTry: (prompt: PromptRow) => void; onEdit: (prompt: PromptRow) => void; onDelete: (prompt: PromptRow) => void }

function PromptActions({ prompt, onTry, onEdit, onDelete }: PromptActionsProps) {
  const { t } = useLingui()
  const name = prompt.name
  return (
    <span className="row-actions">
      <Button variant="ghost" icon aria-label={t`Try ${name}`} onPress={() => onTry(prompt)}>
        <ChatIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Edit ${name}`} onPress={() => onEdit(prompt)}>
        <EditIcon />
      </Button>
      <Button variant="ghost" icon aria-label={t`Delete ${name}`} onPress={() => onDelete(prompt)}>
        <TrashIcon />
      </Button>
    </span>
  )
}
