import { randomBytes, randomUUID } from 'node:crypto';
import type { ListedApiKey } from '../../subgraphs/account/types.js';
import type { AccountServices, CallerIdentity } from '../../subgraphs/shared/account-services.js';
import { CREDIT_PACKAGES, creditPackage, packagePriceUsd } from '../arguments/credit-package.js';
import { ApiError, notFound } from '../errors/api-error.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secrets.js';
import type { AccessLimits } from './caller-limits.js';
import { creditsUsedCounter, DAY_MS, globalDailyCounter, windowResetsAt } from './quota-plan.js';
import type { SessionTokens } from './session-tokens.js';
import type { SiweAudience } from './siwe-audience.js';
import { SIWE_VERSION } from './siwe-message.js';
import { type ContractSignatureCheck, verifySiweSignIn } from './verify-siwe.js';
import type { X402Payments } from './x402-payments.js';

/** docs/api-contract.md#other-constants: a nonce lives 5 minutes. */
export const NONCE_TTL_MS = 5 * 60 * 1000;
/** The chain SIWE challenges name (Ethereum, where contract wallets are checked). */
export const SIWE_CHAIN_ID = 1;
/** A wallet's keys each get their own free daily quota, so their number is bounded. */
export const MAX_KEYS_PER_WALLET = 10;

const iso = (ms: number): string => new Date(ms).toISOString();

/** docs/api-contract.md#siwe-session: sessions enable /api/me, /api/me/usage, /api/auth/session and key management. */
function requireSession(caller: CallerIdentity): {
  wallet: `0x${string}`;
  session: NonNullable<CallerIdentity['session']>;
} {
  if (caller.mode !== 'siwe' || !caller.wallet || !caller.session) {
    throw new ApiError('UNAUTHORIZED', 'a SIWE session token is required: Authorization: Bearer <token>');
  }
  return { wallet: caller.wallet, session: caller.session };
}

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
 * (docs/api-contract.md#states-and-transitions).
 * @example const account = createAccountServices({ store, tokens, limits, siweAudience: () => audience, paymentReceiver })
 */
export function createAccountServices(p: AccountServicesParams): AccountServices {
  const { store } = p;
  const now = p.now ?? Date.now;

  /** Today's calls of each key (its global daily counter) and credits it spent, in one read. */
  const keyUsage = async (keys: ApiKeyRecord[], at: number) => {
    const counters = keys.flatMap((k) => [
      globalDailyCounter(`key:${k.id}`, { daily: k.dailyLimit, perMinute: k.minuteLimit }),
      creditsUsedCounter(k.id),
    ]);
    const { counts } = await store.readQuota({ counters, now: at });
    return keys.map((k, i) => ({ key: k, usageToday: counts[2 * i] ?? 0, creditsUsedToday: counts[2 * i + 1] ?? 0 }));
  };

  const ownKey = async (wallet: string, id: string): Promise<ApiKeyRecord> => {
    const key = await store.getApiKey(id);
    // Another wallet's key is as absent as a deleted one: ids reveal nothing.
    if (!key || key.wallet !== wallet.toLowerCase()) throw notFound('no API key with this id belongs to this wallet');
    return key;
  };

  return {
    async siweChallenge() {
      const at = now();
      const nonce = randomBytes(16).toString('hex');
      const { domain, uri } = p.siweAudience();
      const expiresAt = at + NONCE_TTL_MS;
      await store.putNonce({ nonce, domain, uri, chainId: SIWE_CHAIN_ID, issuedAt: at, expiresAt });
      return {
        nonce,
        issuedAt: iso(at),
        expiresAt: iso(expiresAt),
        domain,
        uri,
        version: SIWE_VERSION,
        chainId: SIWE_CHAIN_ID,
      };
    },

    async siweVerify({ message, signature }) {
      const at = now();
      const { address } = await verifySiweSignIn({
        message,
        signature,
        now: at,
        findNonce: (nonce) => store.peekNonce({ nonce, now: at }),
        consumeNonce: (nonce) => store.consumeNonce({ nonce, now: at }),
        checkContractSignature: p.checkContractSignature,
      });
      await store.touchWallet({ address, now: at });
      const { token, claims } = await p.tokens.issue({ address, now: at });
      await store.openSession({
        sessionId: claims.sessionId,
        tokenId: claims.tokenId,
        expiresAt: claims.expiresAt,
        now: at,
      });
      return { success: true, token, address: claims.address, expiresAt: iso(claims.expiresAt) };
    },

    async refreshSession(caller) {
      const { wallet, session } = requireSession(caller);
      const at = now();
      const { token, claims } = await p.tokens.issue({ address: wallet, sessionId: session.id, now: at });
      // One compare-and-set in the store: of concurrent refreshes of one token exactly one makes its token current.
      const refreshed = await store.refreshSession({
        sessionId: session.id,
        tokenId: session.tokenId,
        nextTokenId: claims.tokenId,
        expiresAt: claims.expiresAt,
        now: at,
      });
      if (!refreshed) {
        throw new ApiError('UNAUTHORIZED', 'this token was already refreshed, or the session ended');
      }
      return { success: true, token, expiresAt: iso(claims.expiresAt) };
    },

    async logout(caller) {
      const { session } = requireSession(caller);
      await store.endSession({ sessionId: session.id, now: now() });
      return {
        success: true,
        message: 'Session terminated: its token, and every token refreshed from it, is refused from now on',
      };
    },

    async sessionStatus(caller) {
      const limits = p.limits.modes.siwe;
      if (caller.mode !== 'siwe' || !caller.session || !caller.wallet) {
        return {
          authenticated: false,
          address: null,
          expiresAt: null,
          expiresIn: null,
          tier: caller.mode,
          limits: caller.limits,
        };
      }
      return {
        authenticated: true,
        address: caller.wallet,
        expiresAt: iso(caller.session.expiresAt),
        expiresIn: Math.max(0, Math.floor((caller.session.expiresAt - now()) / 1000)),
        tier: 'siwe',
        limits,
      };
    },

    async me(caller) {
      const { wallet, session } = requireSession(caller);
      const [record, keys] = await Promise.all([store.getWallet(wallet), store.listApiKeys(wallet)]);
      return {
        address: wallet,
        firstSeenAt: record ? iso(record.firstSeenAt) : null,
        lastSeenAt: record ? iso(record.lastSeenAt) : null,
        sessionExpiresAt: iso(session.expiresAt),
        apiKeyCount: keys.length,
        tier: 'siwe',
        limits: caller.limits,
      };
    },

    async myUsage(caller) {
      const { wallet } = requireSession(caller);
      const at = now();
      const [{ counts }, keys] = await Promise.all([
        store.readQuota({ counters: [globalDailyCounter(caller.key, caller.limits)], now: at }),
        store.listApiKeys(wallet),
      ]);
      const used = counts[0] ?? 0;
      return {
        address: wallet,
        tier: 'siwe',
        used,
        limit: caller.limits.daily,
        remaining: Math.max(0, caller.limits.daily - used),
        perMinuteLimit: caller.limits.perMinute,
        resetsAt: iso(windowResetsAt(at, DAY_MS)),
        apiKeys: (await keyUsage(keys, at)).map(({ key, usageToday, creditsUsedToday }) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          usageToday,
          creditsUsedToday,
          credits: key.credits,
        })),
      };
    },

    async usage(caller) {
      const at = now();
      const counters = [globalDailyCounter(caller.key, caller.limits)];
      if (caller.apiKeyId) counters.push(creditsUsedCounter(caller.apiKeyId));
      const [{ counts }, balance] = await Promise.all([
        store.readQuota({ counters, now: at }),
        caller.apiKeyId ? store.getCredits(caller.apiKeyId) : Promise.resolve(0),
      ]);
      const used = counts[0] ?? 0;
      return {
        used,
        limit: caller.limits.daily,
        remaining: Math.max(0, caller.limits.daily - used),
        credits: caller.apiKeyId ? { balance, usedToday: counts[1] ?? 0 } : null,
        tier: caller.mode,
        resetsAt: iso(windowResetsAt(at, DAY_MS)),
      };
    },

    async createApiKey(caller, name) {
      const { wallet } = requireSession(caller);
      if ((await store.listApiKeys(wallet)).length >= MAX_KEYS_PER_WALLET) {
        throw new ApiError('CONFLICT', `a wallet may hold at most ${MAX_KEYS_PER_WALLET} API keys; delete one first`);
      }
      const key = generateApiKey();
      const record = await store.createApiKey({
        id: randomUUID(),
        wallet,
        name,
        keyHash: hashApiKey(key),
        prefix: displayPrefix(key),
        createdAt: now(),
        dailyLimit: p.limits.modes.api_key.daily,
        minuteLimit: p.limits.modes.api_key.perMinute,
      });
      return {
        success: true,
        key: {
          id: record.id,
          name: record.name,
          key,
          createdAt: iso(record.createdAt),
          credits: record.credits,
          dailyLimit: record.dailyLimit,
          minuteLimit: record.minuteLimit,
        },
      };
    },

    async listApiKeys(caller) {
      const { wallet } = requireSession(caller);
      const at = now();
      const usage = await keyUsage(await store.listApiKeys(wallet), at);
      const keys: ListedApiKey[] = usage.map(({ key, usageToday }) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        createdAt: iso(key.createdAt),
        lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
        credits: key.credits,
        usageToday,
        dailyLimit: key.dailyLimit,
        minuteLimit: key.minuteLimit,
      }));
      return { keys };
    },

    async rotateApiKey(caller, id) {
      const { wallet } = requireSession(caller);
      const key = generateApiKey();
      const rotated = await store.rotateApiKey({
        id,
        wallet,
        keyHash: hashApiKey(key),
        prefix: displayPrefix(key),
        now: now(),
      });
      if (!rotated) throw notFound('no API key with this id belongs to this wallet');
      return {
        success: true,
        key: { id: rotated.id, key, note: 'The previous key is refused from now on; this one is shown only once.' },
      };
    },

    async deleteApiKey(caller, id) {
      const { wallet } = requireSession(caller);
      if (!(await store.deleteApiKey({ id, wallet, now: now() }))) {
        throw notFound('no API key with this id belongs to this wallet');
      }
      return {
        success: true,
        message: 'API key deleted; its remaining credits are destroyed (not refundable, not transferable)',
      };
    },

    creditPackages() {
      return { packages: [...CREDIT_PACKAGES] };
    },

    async purchaseCredits(caller, { id, packageId, payment, resource }) {
      const { wallet } = requireSession(caller);
      const pkg = creditPackage(packageId);
      await ownKey(wallet, id);
      if (p.payments) {
        const terms = {
          priceUsd: packagePriceUsd(pkg),
          resource,
          description: `${pkg.credits} API credits (${pkg.id}) for API key ${id}`,
          mimeType: 'application/json',
        };
        if (!payment) {
          throw p.payments.offer(terms, {
            message: `Buying ${pkg.credits} credits costs ${pkg.price}: pay it with x402 (USDC on Base) and send the request again with the payment`,
            extra: { packageId: pkg.id, credits: pkg.credits },
          });
        }
        const authorized = await p.payments.authorize(payment, terms);
        const { transaction } = await authorized.settle();
        // The payment's reference (payer and EIP-3009 nonce) makes the credit once-only, whatever is retried.
        const credited = await store.addCredits({
          keyId: id,
          amount: pkg.credits,
          reference: authorized.reference,
          now: now(),
        });
        return {
          success: true,
          keyId: id,
          packageId: pkg.id,
          creditsAdded: credited.applied ? pkg.credits : 0,
          balance: credited.balance,
          transaction,
        };
      }
      // No facilitator configured: no payment can be verified, so none is taken and no credit is added.
      throw new ApiError(
        'PAYMENT_REQUIRED',
        `Buying ${pkg.credits} credits costs ${pkg.price} paid with x402; this server has no x402 facilitator to verify payments, so no credits were added`,
        { priceUSD: packagePriceUsd(pkg), recipient: p.paymentReceiver, packageId: pkg.id, credits: pkg.credits },
      );
    },
  };
}
