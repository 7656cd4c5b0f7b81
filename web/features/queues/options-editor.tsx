// The queue's chatbot menu (§3 "Queue option": title, message, option number, children at any depth):
// a nested list where every option can be edited, moved up or down among its siblings, given
// sub-options, or deleted with everything under it. Each change is saved at once through
// /api/queue-options; the tree is read again after it (GET /queue-options/tree).
// Live: another admin's change to this queue's menu arrives on the `queue` channel (see
// option-echoes.ts) and the tree is read again; while this user has a form or the delete confirmation
// open, it waits (with a notice) until that is done, so an edit in progress is never lost.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf, type ApiError } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ArrowDownIcon, ArrowUpIcon, EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { OptionForm, optionRules, type OptionFormErrors } from './option-form.tsx'
import { descendantCount, moveChanges, siblingsOf, type OptionNode } from './option-tree.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { serverFieldErrors } from '../../forms/server-errors.ts'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { optionsChangeFor, OwnOptionChanges } from './option-echoes.ts'
import '../../styles/live-notices.css'
import { toastFailure } from '../../components/failure-toast.ts'

type Editing = { mode: 'add'; parentId: number | null } | { mode: 'edit'; optionId: number } | null
type Direction = 'up' | 'down'

export function OptionsEditor({ queueId }: { queueId: number }) {
  const { t, i18n } = useLingui()
  const [tree, setTree] = useState<OptionNode[] | null>(null)
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<OptionNode | null>(null)
  const [moving, setMoving] = useState(false)
  const focusAfterMove = useRef<{ optionId: number; direction: Direction } | null>(null)
  const container = useRef<HTMLDivElement>(null)
  const own = useRef(new OwnOptionChanges())
  // Someone else changed the menu while this user was busy here: read again once he is done.
  const [outdated, setOutdated] = useState(false)
  const busy = editing !== null || deleting !== null || moving
  const socket = useAtomValue(realtimeSocketAtom)

  const load = useCallback(async () => {
    const { data, error } = await api['queue-options'].tree.get({ query: { queueId } })
    if (error) {
      toastFailure(i18n, error)
      return
    }
    setTree(data)
  }, [i18n, queueId])

  useEffect(() => {
    void load()
  }, [load])

  useEffect(() => {
    if (!outdated || busy) return
    setOutdated(false)
    void load()
  }, [outdated, busy, load])

  useChannel('queue', (frame) => {
    const change = optionsChangeFor(frame, queueId)
    if (change && own.current.heard(change) === 'other') setOutdated(true)
  })
  // Frames sent while the socket was down are lost: read again after a reconnect.
  useEffect(() => socket?.onReconnect(() => setOutdated(true)), [socket])

  /** Runs an own change (its requests and the reload after them); what was heard meanwhile is read after it. */
  const ownChange = async <Result,>(work: () => Promise<Result>): Promise<Result> => {
    own.current.start()
    try {
      return await work()
    } finally {
      if (own.current.finish()) setOutdated(true)
    }
  }

  // A moved option's row is re-rendered elsewhere: its button takes the focus back, so the keyboard
  // user can press again (the other direction's button when it reached the end of its list).
  useEffect(() => {
    const target = focusAfterMove.current
    if (!target || !container.current) return
    focusAfterMove.current = null
    const button = (direction: Direction) =>
      container.current?.querySelector<HTMLButtonElement>(`[data-move="${direction}-${target.optionId}"]:not([disabled])`)
    ;(button(target.direction) ?? button(target.direction === 'up' ? 'down' : 'up'))?.focus()
  }, [tree])

  const refused = (failure: ApiError): OptionFormErrors => {
    const errors: OptionFormErrors = serverFieldErrors(failure, { title: optionRules.title, message: optionRules.message })
    if (!errors.title && !errors.message) errors.form = errorMessage(i18n, failure.code)
    showToast('error', errorMessage(i18n, failure.code))
    return errors
  }

  const add = (parentId: number | null, values: { title: string; message: string }) =>
    ownChange(async () => {
      const { data, error } = await api['queue-options'].post({ queueId, parentId: parentId ?? -1, ...values })
      if (error || !data) return refused(apiErrorOf(error))
      own.current.confirmed({ action: 'create', optionIds: [data.id] })
      // The form gives way to the row only once the tree holds it.
      await load()
      setEditing(null)
      showToast('success', t`Option added.`)
      return null
    })

  const edit = (optionId: number, values: { title: string; message: string }) =>
    ownChange(async () => {
      const { error } = await api['queue-options']({ id: optionId }).put(values)
      if (error) return refused(apiErrorOf(error))
      own.current.confirmed({ action: 'update', optionIds: [optionId] })
      // The form gives way to the row only once the tree holds it.
      await load()
      setEditing(null)
      showToast('success', t`Option saved.`)
      return null
    })

  const move = async (node: OptionNode, direction: Direction) => {
    if (!tree || moving) return
    const changes = moveChanges(siblingsOf(tree, node.id) ?? [], node.id, direction)
    if (changes.length === 0) return
    setMoving(true)
    await ownChange(async () => {
      try {
        for (const change of changes) {
          const { error } = await api['queue-options']({ id: change.id }).put({ option: change.option })
          if (error) {
            toastFailure(i18n, error)
            return
          }
          own.current.confirmed({ action: 'update', optionIds: [change.id] })
        }
        showToast('success', t`Option moved.`)
      } finally {
        focusAfterMove.current = { optionId: node.id, direction }
        // Read again in any case: a failed step leaves the numbers as the server has them.
        await load()
        setMoving(false)
      }
    })
  }

  const confirmDelete = async (): Promise<boolean> => {
    if (!deleting) return true
    const optionId = deleting.id
    return ownChange(async () => {
      const { data, error } = await api['queue-options']({ id: optionId }).delete()
      if (error || !data) {
        toastFailure(i18n, error)
        return false
      }
      own.current.confirmed({ action: 'delete', optionIds: data.deletedIds })
      showToast('success', t`Option deleted.`)
      setEditing(null)
      await load()
      return true
    })
  }

  const renderList = (nodes: OptionNode[], parentTitle: string | null) => (
    <ol className="queue-option-list" aria-label={parentTitle === null ? t`Options` : t`Sub-options of ${parentTitle}`}>
      {nodes.map((node, index) => {
        const title = node.title
        const number = node.option
        const isEditing = editing?.mode === 'edit' && editing.optionId === node.id
        const addingChild = editing?.mode === 'add' && editing.parentId === node.id
        return (
          <li key={node.id} className="queue-option">
            {isEditing ? (
              <OptionForm label={t`Edit ${title}`} initial={node} onSubmit={(values) => edit(node.id, values)} onCancel={() => setEditing(null)} />
            ) : (
              <div className="queue-option-row">
                <span className="queue-option-number">
                  <span aria-hidden="true">{number}</span>
                  <span className="visually-hidden">{t`Customer types ${number}:`}</span>
                </span>
                <span className="queue-option-text">
                  <span className="queue-option-title">{title}</span>
                  {node.message ? <span className="queue-option-message">{node.message}</span> : null}
                </span>
                <span className="row-actions">
                  <Button variant="ghost" icon aria-label={t`Move ${title} up`} data-move={`up-${node.id}`} isDisabled={index === 0 || moving} onPress={() => void move(node, 'up')}>
                    <ArrowUpIcon />
                  </Button>
                  <Button
                    variant="ghost"
                    icon
                    aria-label={t`Move ${title} down`}
                    data-move={`down-${node.id}`}
                    isDisabled={index === nodes.length - 1 || moving}
                    onPress={() => void move(node, 'down')}
                  >
                    <ArrowDownIcon />
                  </Button>
                  <Button variant="ghost" icon aria-label={t`Add a sub-option to ${title}`} onPress={() => setEditing({ mode: 'add', parentId: node.id })}>
                    <PlusIcon />
                  </Button>
                  <Button variant="ghost" icon aria-label={t`Edit ${title}`} onPress={() => setEditing({ mode: 'edit', optionId: node.id })}>
                    <EditIcon />
                  </Button>
                  <Button variant="ghost" icon aria-label={t`Delete ${title}`} onPress={() => setDeleting(node)}>
                    <TrashIcon />
                  </Button>
                </span>
              </div>
            )}
            {node.children.length > 0 ? renderList(node.children, title) : null}
            {addingChild ? (
              <div className="queue-option-nested-form">
                <OptionForm label={t`New sub-option of ${title}`} onSubmit={(values) => add(node.id, values)} onCancel={() => setEditing(null)} />
              </div>
            ) : null}
          </li>
        )
      })}
    </ol>
  )

  const deletingTitle = deleting?.title ?? ''
  const deletingCount = deleting ? descendantCount(deleting) : 0
  return (
    <div className="queue-options" ref={container}>
      <p className="field-description">
        {t`When a customer picks this queue, the bot lists these options; an option with sub-options lists them in turn. The number is what the customer types. Changes here are saved at once.`}
      </p>
      {outdated && busy ? (
        <p className="live-notice" role="status">
          {t`Another admin changed these options. They are shown as soon as you finish here.`}
        </p>
      ) : null}
      {tree === null ? (
        <p role="status">{t`Loading…`}</p>
      ) : tree.length === 0 && editing?.mode !== 'add' ? (
        <p className="queue-options-empty">{t`No options yet: the customer goes straight to the queue.`}</p>
      ) : (
        renderList(tree, null)
      )}
      {editing?.mode === 'add' && editing.parentId === null ? (
        <OptionForm label={t`New option`} onSubmit={(values) => add(null, values)} onCancel={() => setEditing(null)} />
      ) : (
        <Button variant="secondary" onPress={() => setEditing({ mode: 'add', parentId: null })} isDisabled={tree === null}>
          <PlusIcon />
          {t`Add option`}
        </Button>
      )}
      <ConfirmDialog
        title={t`Delete option`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
        <p className="queue-note">
          {deletingCount > 0 ? t`Option: ${deletingTitle}. Its ${deletingCount} sub-options are deleted with it.` : t`Option: ${deletingTitle}.`}
        </p>
      </ConfirmDialog>
    </div>
  )
}
