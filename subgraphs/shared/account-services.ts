import type { CreditPackageId } from '../../src/arguments/credit-package.js';
import type {
  CreatedApiKey,
  CreditPackage,
  CreditPurchase,
  ListedApiKey,
  RefreshedSession,
  ResultMessage,
  RotatedApiKey,
  SessionStatus,
  SiweChallenge,
  SiweSession,
  Usage,
  WalletProfile,
  WalletUsage,
} from '../account/types.js';
/**
 * What the account subgraph asks of the server (docs/api-contract.md#authentication, docs/api-contract.md#api-key,
 * docs/api-contract.md#usage): implemented by the
 * access layer (src/access/account-services.ts), reached through `GraphContext.app.account`.
 */

/** Who is calling (docs/api-contract.md#access-modes, x402 aside), as the access layer identified them. */
export interface CallerIdentity {
  mode: 'anonymous' | 'siwe' | 'api_key';
  /** Key the caller's counters are kept under: `ip:…`, `wallet:…` or `key:…`. */
  key: string;
  /** The wallet: the signed-in one, or the one owning the API key. */
  wallet?: `0x${string}`;
  /** For SIWE callers: the session (one sign-in and its refreshes), the token presented, and its expiry (ms). */
  session?: { id: string; tokenId: string; expiresAt: number };
  /** The API key's id, for API key callers. */
  apiKeyId?: string;
  /** The mode's daily and per-minute limits. */
  limits: { daily: number; perMinute: number };
}

export interface AccountServices {
  /** A fresh single-use nonce, valid 5 minutes, bound to the configured domain, URI and chain callers must sign for. */
  siweChallenge(): Promise<SiweChallenge>;
  /** Checks an EIP-4361 message and its signature; opens a 24-hour session. */
  siweVerify(p: { message: string; signature: string }): Promise<SiweSession>;
  refreshSession(caller: CallerIdentity): Promise<RefreshedSession>;
  logout(caller: CallerIdentity): Promise<ResultMessage>;
  sessionStatus(caller: CallerIdentity): Promise<SessionStatus>;
  me(caller: CallerIdentity): Promise<WalletProfile>;
  myUsage(caller: CallerIdentity): Promise<WalletUsage>;
  /** The caller's quota today; reads counters, consumes nothing. */
  usage(caller: CallerIdentity): Promise<Usage>;
  /** A key for the signed-in wallet; `name` is already parsed with `apiKeyName` (trimmed, 1 to 64 characters). */
  createApiKey(caller: CallerIdentity, name: string): Promise<{ success: boolean; key: CreatedApiKey }>;
  listApiKeys(caller: CallerIdentity): Promise<{ keys: ListedApiKey[] }>;
  rotateApiKey(caller: CallerIdentity, id: string): Promise<{ success: boolean; key: RotatedApiKey }>;
  deleteApiKey(caller: CallerIdentity, id: string): Promise<ResultMessage>;
  creditPackages(): { packages: CreditPackage[] };
  /**
   * Credits a key against a verified, settled x402 payment of the package's price, once per payment; without one, the
   * 402 offer and no credit. `packageId` is already parsed with `creditPackageId`, the one rule for it; `resource` is
   * the absolute URL asked for (the offer names it).
   */
  purchaseCredits(
    caller: CallerIdentity,
    p: { id: string; packageId: CreditPackageId; payment?: PresentedPaymentShape | undefined; resource: string },
  ): Promise<CreditPurchase>;
}

/** An x402 payment header as sent: `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2) and its base64 value. */
export interface PresentedPaymentShape {
  header: 'X-PAYMENT' | 'PAYMENT-SIGNATURE';
  value: string;
}
