// /todolist (§2 "To-do: a local list of tasks", §9 "Tasks: stored in local storage"): the signed-in
// user's tasks in this browser. Add with Enter, edit in place (Enter saves, Escape cancels), delete;
// blank texts are ignored (§5). Other tabs of the same user follow through the storage event.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { Form, Input, TextField as AriaTextField } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { CheckIcon, CloseIcon, EditIcon, PlusIcon, TrashIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { formatDateTime } from '../../i18n/format.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { addTask, editTask, loadTasks, removeTask, saveTasks, tasksStorageKey, type Task } from './tasks.ts'

function useTasks(userId: number) {
  const [tasks, setTasks] = useState<Task[]>(() => loadTasks(localStorage, userId))
  useEffect(() => {
    setTasks(loadTasks(localStorage, userId))
    const onStorage = (event: StorageEvent) => {
      if (event.key === tasksStorageKey(userId)) setTasks(loadTasks(localStorage, userId))
    }
    addEventListener('storage', onStorage)
    return () => removeEventListener('storage', onStorage)
  }, [userId])
  return [tasks, setTasks] as const
}

function TaskItem({ task, onEdit, onDelete }: { task: Task; onEdit: (text: string) => void; onDelete: () => void }) {
  const { t } = useLingui()
  const [draft, setDraft] = useState<string | null>(null)
  const actions = useRef<HTMLSpanElement>(null)
  const text = task.text
  const finish = (save: boolean) => {
    if (save && draft !== null) onEdit(draft)
    setDraft(null)
    // Back to where the keyboard was: the row's edit button.
    requestAnimationFrame(() => actions.current?.querySelector('button')?.focus())
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      finish(false)
    }
  }
  if (draft !== null) {
    return (
      <li className="todo-item todo-item-editing">
        <Form
          className="todo-edit"
          onSubmit={(event) => {
            event.preventDefault()
            finish(true)
          }}
        >
          <AriaTextField className="field todo-edit-field" value={draft} onChange={setDraft} aria-label={t`Edit task ${text}`} autoFocus onKeyDown={onKeyDown}>
            <div className="field-frame">
              <Input className="field-input" />
            </div>
          </AriaTextField>
          <Button type="submit" variant="ghost" icon aria-label={t`Save task`}>
            <CheckIcon />
          </Button>
          <Button variant="ghost" icon aria-label={t`Cancel editing`} onPress={() => finish(false)}>
            <CloseIcon />
          </Button>
        </Form>
      </li>
    )
  }
  return (
    <li className="todo-item">
      <span className="todo-text">{task.text}</span>
      <span className="todo-date">{formatDateTime(task.updatedAt ?? task.createdAt)}</span>
      <span className="row-actions" ref={actions}>
        <Button variant="ghost" icon aria-label={t`Edit task ${text}`} onPress={() => setDraft(task.text)}>
          <EditIcon />
        </Button>
        <Button variant="ghost" icon aria-label={t`Delete task ${text}`} onPress={onDelete}>
          <TrashIcon />
        </Button>
      </span>
    </li>
  )
}

function TodoList({ userId }: { userId: number }) {
  const { t } = useLingui()
  const [tasks, setTasks] = useTasks(userId)
  const [text, setText] = useState('')

  const update = (next: Task[]) => {
    setTasks(next)
    if (!saveTasks(localStorage, userId, next)) showToast('warning', t`The tasks could not be stored in this browser; they last until the page is closed.`)
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // §5: a blank text is ignored.
    if (!text.trim()) return
    update(addTask(tasks, text, { id: crypto.randomUUID(), now: new Date() }))
    setText('')
  }

  return (
    <>
      <Form className="todo-add" onSubmit={submit}>
        <TextField label={t`New task`} name="task" value={text} onChange={setText} className="todo-add-field" />
        <Button type="submit">
          <PlusIcon />
          {t`Add`}
        </Button>
      </Form>
      {tasks.length === 0 ? (
        <p className="muted-note">{t`No tasks yet.`}</p>
      ) : (
        <ul className="todo-list" aria-label={t`Tasks`}>
          {tasks.map((task) => (
            <TaskItem
              key={task.id}
              task={task}
              onEdit={(edited) => update(editTask(tasks, task.id, edited, new Date()))}
              onDelete={() => update(removeTask(tasks, task.id))}
            />
          ))}
        </ul>
      )}
    </>
  )
}

export function TodolistPage() {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  return (
    <div className="admin-page todo-page">
      <PageHeader title={t`To-do list`} />
      {user ? <TodoList userId={user.id} /> : null}
    </div>
  )
}
