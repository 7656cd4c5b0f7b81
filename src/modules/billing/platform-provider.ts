// The payment provider the platform charges its companies through: Asaas, with the platform's token
// (the `asaas` setting of the platform's own company, §9, sealed at rest) at the configured URL (ASAAS_API_URL).
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { openSecretSetting } from '../settings/service.ts'
import { createAsaasProvider } from './asaas.ts'
import type { PaymentProvider } from './provider.ts'
import { findPlatformCompanyId } from './queries.ts'

export async function platformPaymentProvider(deps: Deps): Promise<PaymentProvider> {
  const platformCompanyId = await findPlatformCompanyId(deps.db)
  const token = platformCompanyId === undefined ? '' : (await openSecretSetting(deps, platformCompanyId, 'asaas')).trim()
  if (!token) throw new AppError('ERR_PAYMENT_NOT_CONFIGURED')
  return createAsaasProvider({ baseUrl: deps.config.billing.asaasApiUrl, token, timeoutMs: deps.config.billing.providerTimeoutMs })
}
