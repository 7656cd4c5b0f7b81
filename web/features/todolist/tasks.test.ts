import { describe, expect, test } from 'bun:test'
import { addTask, editTask, loadTasks, parseTasks, removeTask, saveTasks, tasksStorageKey, type Task } from './tasks.ts'

const now = new Date('2026-01-02T03:04:05.000Z')
const later = new Date('2026-01-03T00:00:00.000Z')

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial))
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value), values }
}

describe('to-do tasks', () => {
  test('adding trims the text and keeps the order; a blank text is ignored', () => {
    const one = addTask([], '  call Ana  ', { id: 'a', now })
    expect(one).toEqual([{ id: 'a', text: 'call Ana', createdAt: now.toISOString() }])
    const two = addTask(one, 'send invoice', { id: 'b', now })
    expect(two.map((task) => task.text)).toEqual(['call Ana', 'send invoice'])
    expect(addTask(two, '   \n\t', { id: 'c', now })).toEqual(two)
    expect(addTask(two, '', { id: 'c', now })).toEqual(two)
  })

  test('editing changes only that task, and a blank edit changes nothing', () => {
    const tasks = addTask(addTask([], 'one', { id: 'a', now }), 'two', { id: 'b', now })
    const edited = editTask(tasks, 'b', ' 2 ', later)
    expect(edited[0]).toEqual(tasks[0]!)
    expect(edited[1]).toEqual({ id: 'b', text: '2', createdAt: now.toISOString(), updatedAt: later.toISOString() })
    expect(editTask(tasks, 'b', '  ', later)).toEqual(tasks)
    // The same text is no change: no updatedAt.
    expect(editTask(tasks, 'a', 'one', later)[0]).toEqual(tasks[0]!)
  })

  test('removing drops only that task', () => {
    const tasks = addTask(addTask([], 'one', { id: 'a', now }), 'two', { id: 'b', now })
    expect(removeTask(tasks, 'a').map((task) => task.id)).toEqual(['b'])
    expect(removeTask(tasks, 'missing')).toEqual(tasks)
  })

  test('stored per user under a key with the user id', () => {
    const storage = memoryStorage()
    const tasks: Task[] = addTask([], 'mine', { id: 'a', now })
    expect(saveTasks(storage, 7, tasks)).toBe(true)
    expect(tasksStorageKey(7)).toBe('todolist:7')
    expect([...storage.values.keys()]).toEqual(['todolist:7'])
    expect(loadTasks(storage, 7)).toEqual(tasks)
    expect(loadTasks(storage, 8)).toEqual([])
  })

  test('whatever the storage holds, only valid tasks come back', () => {
    expect(parseTasks(null)).toEqual([])
    expect(parseTasks('not json')).toEqual([])
    expect(parseTasks('{"id":"a"}')).toEqual([])
    const valid = { id: 'a', text: 'ok', createdAt: now.toISOString() }
    expect(parseTasks(JSON.stringify([valid, { id: 1, text: 'bad id' }, { id: 'b', text: '  ', createdAt: 'x' }, null]))).toEqual([valid])
  })

  test('a storage that throws gives an empty list and a failed save, not a crash', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked')
      },
      setItem: () => {
        throw new Error('quota')
      },
    }
    expect(loadTasks(broken, 1)).toEqual([])
    expect(saveTasks(broken, 1, [])).toBe(false)
  })
})
