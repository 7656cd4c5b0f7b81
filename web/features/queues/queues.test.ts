// The queues page's pure parts: palette (§9), default week (§9), the §5 form checks and the mapping
// of the server's refusals, the table order, and the option tree's reordering arithmetic.
import { plugin } from 'bun'
import { describe, expect, test } from 'bun:test'
import type { ApiError } from '../../api/errors.ts'
import { linguiMacroPlugin } from '../../lingui-plugin.ts'
import { moveChanges, descendantCount, siblingsOf, type OptionNode } from './option-tree.ts'
import { compareQueues, type QueueRow } from './queue.ts'

// Palette names, weekday labels and form rules are Lingui descriptors: compiled on load, as in the build.
plugin(linguiMacroPlugin({ descriptorFields: 'message' }))
const { firstFreeColor, queuePalette } = await import('./palette.ts')
const { emptyQueueForm, queueBodyOf, queueErrorsOf, queueFormOf, queueRules, tabOfField, validateQueueForm } = await import('./queue-form.ts')
const { defaultWeek, weekOf } = await import('../../forms/week-hours.ts')

/** WCAG 2 channel linearisation of "#rrggbb". */
function linearChannels(hex: string): [number, number, number] {
  const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255)
  return channels.map((channel) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4)) as [number, number, number]
}

function contrastWithWhite(hex: string): number {
  const [red, green, blue] = linearChannels(hex)
  return 1.05 / (0.2126 * red + 0.7152 * green + 0.0722 * blue + 0.05)
}

/** CIE L*a*b* (D65) of "#rrggbb", for the CIE76 colour distance. */
function lab(hex: string): [number, number, number] {
  const [red, green, blue] = linearChannels(hex)
  const x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
  const y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
  const z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883
  const f = (value: number) => (value > 0.008856 ? Math.cbrt(value) : 7.787 * value + 16 / 116)
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
}

const option = (id: number, number: string, children: OptionNode[] = []): OptionNode => ({
  id,
  queueId: 1,
  parentId: null,
  title: `Option ${id}`,
  message: '',
  option: number,
  children,
})

describe('palette', () => {
  test('twelve colours far apart from each other, each readable with white text (WCAG AA)', () => {
    expect(queuePalette).toHaveLength(12)
    for (const entry of queuePalette) expect(contrastWithWhite(entry.value)).toBeGreaterThanOrEqual(4.5)
    let closest = Number.POSITIVE_INFINITY
    for (const [index, first] of queuePalette.entries()) {
      for (const second of queuePalette.slice(index + 1)) closest = Math.min(closest, Math.hypot(...lab(first.value).map((value, axis) => value - lab(second.value)[axis]!)))
    }
    expect(closest).toBeGreaterThanOrEqual(28)
  })
  test('a new queue gets the first colour nobody uses', () => {
    expect(firstFreeColor([])).toBe('#1d4ed8')
    expect(firstFreeColor(['#1D4ED8', '#c2410c'])).toBe('#047857')
    expect(firstFreeColor(queuePalette.map((entry) => entry.value))).toBe('#1d4ed8')
  })
})

describe('schedules', () => {
  test('the §9 default week', () => {
    const week = defaultWeek()
    expect(week.map((day) => `${day.weekdayEn} ${day.startTime}-${day.endTime}`)).toEqual([
      'monday 08:00-18:00',
      'tuesday 08:00-18:00',
      'wednesday 08:00-18:00',
      'thursday 08:00-18:00',
      'friday 08:00-18:00',
      'saturday 08:00-12:00',
      'sunday 00:00-00:00',
    ])
  })
  test('a stored week keeps its entries and fills the missing days', () => {
    const week = weekOf([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '09:00', endTime: '13:00' }])
    expect(week).toHaveLength(7)
    expect(week[6]).toMatchObject({ startTime: '09:00', endTime: '13:00' })
    expect(week[0]).toMatchObject({ weekdayEn: 'monday', startTime: '08:00' })
  })
})

describe('queue form', () => {
  test('§5: name 2 to 50, a colour, an order number or nothing, times HH:MM in order', () => {
    const values = { ...emptyQueueForm('#1d4ed8'), name: ' A ', orderQueue: '1.5' }
    values.schedules[0] = { ...values.schedules[0]!, startTime: '8:00' }
    values.schedules[1] = { ...values.schedules[1]!, startTime: '18:00', endTime: '08:00' }
    const errors = validateQueueForm(values, true)
    expect(errors.name).toBe(queueRules.name)
    expect(errors.orderQueue).toBe(queueRules.orderQueue)
    expect(errors['schedules.0.startTime']).toBe(queueRules.time)
    expect(errors['schedules.1.endTime']).toBe(queueRules.order)
    // Without the attendance tab the hours are neither checked nor sent.
    expect(Object.keys(validateQueueForm(values, false))).toEqual(['name', 'orderQueue'])
    const good = { ...emptyQueueForm('#1d4ed8'), name: ' Vendas ', orderQueue: '' }
    expect(validateQueueForm(good, true)).toEqual({})
    const nothingElse = { schedules: false, prompt: false, integration: false }
    expect(queueBodyOf(good, nothingElse)).toEqual({
      name: 'Vendas',
      color: '#1d4ed8',
      orderQueue: null,
      greetingMessage: '',
      outOfHoursMessage: '',
      slaFirstResponseMinutes: null,
      slaResolutionMinutes: null,
    })
    // Service-level targets: whole minutes 1 to 43200, empty for none.
    expect(Object.keys(validateQueueForm({ ...good, slaFirstResponseMinutes: '0', slaResolutionMinutes: '1.5' }, false))).toEqual(['slaFirstResponseMinutes', 'slaResolutionMinutes'])
    expect(queueBodyOf({ ...good, slaFirstResponseMinutes: ' 15 ', slaResolutionMinutes: '' }, nothingElse)).toMatchObject({ slaFirstResponseMinutes: 15, slaResolutionMinutes: null })
    expect(queueBodyOf({ ...good, orderQueue: '3' }, { ...nothingElse, schedules: true }).schedules).toHaveLength(7)
  })
  test('prompt and integration: read from the queue, sent (null clears) only when their selects are shown', () => {
    expect(emptyQueueForm('#1d4ed8')).toMatchObject({ promptId: null, integrationId: null })
    const stored = { id: 3, name: 'Vendas', color: '#1d4ed8', greetingMessage: '', outOfHoursMessage: '', orderQueue: 1, promptId: 7, integrationId: 9, schedules: [], slaFirstResponseMinutes: 30, slaResolutionMinutes: null }
    const values = queueFormOf(stored)
    expect(values).toMatchObject({ promptId: 7, integrationId: 9, slaFirstResponseMinutes: '30', slaResolutionMinutes: '' })
    const everything = { schedules: true, prompt: true, integration: true }
    expect(queueBodyOf(values, everything)).toMatchObject({ promptId: 7, integrationId: 9 })
    expect(queueBodyOf({ ...values, promptId: null, integrationId: null }, everything)).toMatchObject({ promptId: null, integrationId: null })
    // A plan without the feature hides the select: the queue's stored value is left alone.
    const withoutAi = queueBodyOf(values, { ...everything, prompt: false })
    expect('promptId' in withoutAi).toBe(false)
    expect(withoutAi.integrationId).toBe(9)
    const withoutIntegrations = queueBodyOf(values, { ...everything, integration: false })
    expect('integrationId' in withoutIntegrations).toBe(false)
    expect(withoutIntegrations.promptId).toBe(7)
  })
  test("the server's refusals land on their fields", () => {
    const refusal = (error: Partial<ApiError>): ApiError => ({ status: 409, code: 'ERR', fields: [], ...error })
    expect(queueErrorsOf(refusal({ code: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' }))).toEqual({ color: queueRules.colorTaken })
    expect(queueErrorsOf(refusal({ code: 'ERR_QUEUE_NAME_ALREADY_EXISTS' }))).toEqual({ name: queueRules.nameTaken })
    const fields = [
      { field: 'name', message: 'name is required' },
      { field: 'schedules.2.endTime', message: 'endTime must not be before startTime' },
    ]
    expect(queueErrorsOf(refusal({ status: 422, code: 'ERR_VALIDATION', fields }))).toEqual({ name: queueRules.name, 'schedules.2.endTime': queueRules.order })
    expect(queueErrorsOf(refusal({ code: 'ERR_PLAN_LIMIT_QUEUES' }))).toEqual({})
    const references = [
      { field: 'promptId', message: 'promptId is not a prompt of your company' },
      { field: 'integrationId', message: 'integrationId is not a queue integration of your company' },
    ]
    const refused = queueErrorsOf(refusal({ status: 422, code: 'ERR_VALIDATION', fields: references }))
    expect(refused).toEqual({ promptId: queueRules.prompt, integrationId: queueRules.integration })
    expect(Object.keys(refused).map(tabOfField)).toEqual(['data', 'data'])
  })
  test('the table keeps the server order: orderQueue, unset last, then name', () => {
    const row = (id: number, name: string, orderQueue: number | null) => ({ id, name, orderQueue }) as QueueRow
    const sorted = [row(1, 'b', null), row(2, 'a', null), row(3, 'z', 2), row(4, 'y', 1)].sort(compareQueues)
    expect(sorted.map((queue) => queue.id)).toEqual([4, 3, 2, 1])
  })
})

describe('option tree', () => {
  const tree = [option(1, '1', [option(3, '1'), option(4, '2', [option(5, '1')])]), option(2, '2')]
  test('siblings and subtree size', () => {
    expect(siblingsOf(tree, 4)?.map((node) => node.id)).toEqual([3, 4])
    expect(siblingsOf(tree, 2)).toBe(tree)
    expect(siblingsOf(tree, 99)).toBeUndefined()
    expect(descendantCount(tree[0]!)).toBe(3)
  })
  test('moving swaps the option numbers through a free one', () => {
    expect(moveChanges(tree, 2, 'up')).toEqual([
      { id: 2, option: '3' },
      { id: 1, option: '2' },
      { id: 2, option: '1' },
    ])
    expect(moveChanges(tree, 2, 'down')).toEqual([])
    expect(moveChanges(tree, 1, 'up')).toEqual([])
    const full = [option(1, '998'), option(2, '999')]
    expect(moveChanges(full, 1, 'down')[0]).toEqual({ id: 1, option: '1' })
  })
})
