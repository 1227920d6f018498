import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import type { Store } from '../store/store.js';
import { apiKeyServices } from './api-key-services.js';
import type { AccessLimits } from './caller-limits.js';
import { creditPurchases } from './credit-purchases.js';
import type { SessionTokens } from './session-tokens.js';
import { signInServices } from './sign-in-services.js';
import type { SiweAudience } from './siwe-audience.js';
import { usageServices } from './usage-services.js';
import type { ContractSignatureCheck } from './verify-siwe.js';
import type { X402Payments } from './x402-payments.js';

export interface AccountServicesParams {
  store: Store;
  tokens: SessionTokens;
  limits: AccessLimits;
  /** The domain and URI challenges name (src/access/siwe-audience.ts); asked at the first challenge, after listening. */
  siweAudience: () => SiweAudience;
  /** Where credit purchases are paid to (x402 receiver). */
  paymentReceiver: string;
  /** x402 verification and settlement; without it a purchase is always a 402 and adds nothing. */
  payments?: X402Payments | undefined;
  checkContractSignature?: ContractSignatureCheck;
  now?: () => number;
}

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
