// §9 "Default queue schedule": Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday closed
// (00:00-00:00). Weekday names are Portuguese, as the attendance-time tab shows them.
import type { ScheduleEntry } from '../companies/model.ts'

export function defaultQueueSchedules(): ScheduleEntry[] {
  const day = (weekday: string, weekdayEn: string, startTime: string, endTime: string) => ({ weekday, weekdayEn, startTime, endTime })
  return [
    day('Segunda-feira', 'monday', '08:00', '18:00'),
    day('Terça-feira', 'tuesday', '08:00', '18:00'),
    day('Quarta-feira', 'wednesday', '08:00', '18:00'),
    day('Quinta-feira', 'thursday', '08:00', '18:00'),
    day('Sexta-feira', 'friday', '08:00', '18:00'),
    day('Sábado', 'saturday', '08:00', '12:00'),
    day('Domingo', 'sunday', '00:00', '00:00'),
  ]
}
