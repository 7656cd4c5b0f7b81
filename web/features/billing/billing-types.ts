// The billing API's shapes as the web client receives them (types only, from the Eden client).
import type { api } from '../../api/client.ts'

type Data<T> = T extends Promise<{ data: infer D }> ? NonNullable<D> : never

export type InvoiceRow = Data<ReturnType<(typeof api)['invoices']['all']['get']>>['invoices'][number]
export type Subscription = Data<ReturnType<(typeof api)['subscription']['get']>>
export type CheckoutAnswer = Data<ReturnType<(typeof api)['subscription']['post']>>
export type CheckoutBody = Parameters<(typeof api)['subscription']['post']>[0]
