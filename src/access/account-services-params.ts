import type { Store } from '../store/store.js';
import type { AccessLimits } from './caller-limits.js';
import type { SessionTokens } from './session-tokens.js';
import type { SiweAudience } from './siwe-audience.js';
import type { ContractSignatureCheck } from './verify-siwe.js';
import type { X402Payments } from './x402-payments.js';

/** What the account services are built from. */
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
