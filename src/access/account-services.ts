import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import type { AccountServicesParams } from './account-services-params.js';
import { apiKeyServices } from './api-key-services.js';
import { creditPurchases } from './credit-purchases.js';
import { signInServices } from './sign-in-services.js';
import { usageServices } from './usage-services.js';

/**
 * Sign-in with Ethereum, sessions, API keys, credits and usage, over the store
 * (docs/api-contract.md#states-and-transitions): one service of each concern, put together.
 * @example const account = createAccountServices({ store, tokens, limits, siweAudience: () => audience, paymentReceiver })
 */
export function createAccountServices(p: AccountServicesParams): AccountServices {
  const params = { ...p, now: p.now ?? Date.now };
  return {
    ...signInServices(params),
    ...usageServices(params),
    ...apiKeyServices(params),
    ...creditPurchases(params),
  };
}
