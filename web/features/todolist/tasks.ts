// The to-do list (§2 "To-do", §9 "Tasks: stored in local storage"): plain list operations and their
// storage, one list per user in this browser. Blank texts are ignored (§5 To-do).

export type Task = { id: string; text: string; createdAt: string; updatedAt?: string }

/** One list per signed-in user, so two people sharing a browser do not see each other's tasks. */
export function tasksStorageKey(userId: number): string {
  return `todolist:${userId}`
}

export function addTask(tasks: readonly Task[], text: string, input: { id: string; now: Date }): Task[] {
  const trimmed = text.trim()
  if (!trimmed) return tasks.slice()
  return [...tasks, { id: input.id, text: trimmed, createdAt: input.now.toISOString() }]
}

/** A blank edit leaves the task as it was (deleting is its own action). */
export function editTask(tasks: readonly Task[], id: string, text: string, now: Date): Task[] {
  const trimmed = text.trim()
  if (!trimmed) return tasks.slice()
  return tasks.map((task) => (task.id === id && task.text !== trimmed ? { ...task, text: trimmed, updatedAt: now.toISOString() } : task))
}

export function removeTask(tasks: readonly Task[], id: string): Task[] {
  return tasks.filter((task) => task.id !== id)
}

function isTask(value: unknown): value is Task {
  if (!value || typeof value !== 'object') return false
  const task = value as Record<string, unknown>
  return typeof task.id === 'string' && typeof task.text === 'string' && task.text.trim() !== '' && typeof task.createdAt === 'string'
}

/** Whatever the storage holds (nothing, another app's value, a hand edit): the valid tasks in it. */
export function parseTasks(raw: string | null): Task[] {
  if (!raw) return []
  try {
    const parsed: unknown = JSON.parse(raw)
    return Array.isArray(parsed) ? parsed.filter(isTask) : []
  } catch {
    return []
  }
}

export function loadTasks(storage: Pick<Storage, 'getItem'>, userId: number): Task[] {
  try {
    return parseTasks(storage.getItem(tasksStorageKey(userId)))
  } catch {
    // Storage blocked (privacy mode): an empty list that lives as long as the page.
    return []
  }
}

export function saveTasks(storage: Pick<Storage, 'setItem'>, userId: number, tasks: readonly Task[]): boolean {
  try {
    storage.setItem(tasksStorageKey(userId), JSON.stringify(tasks))
    return true
  } catch {
    return false
  }
}
