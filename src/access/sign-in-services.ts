import { randomBytes } from 'node:crypto';
import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import { ApiError } from '../errors/api-error.js';
import type { AccountServicesParams } from './account-services-params.js';
import { iso, requireSession } from './require-session.js';
import { SIWE_VERSION } from './siwe-message.js';
import { verifySiweSignIn } from './verify-siwe.js';

/** docs/api-contract.md#other-constants: a nonce lives 5 minutes. */
export const NONCE_TTL_MS = 5 * 60 * 1000;
/** The chain SIWE challenges name (Ethereum, where contract wallets are checked). */
export const SIWE_CHAIN_ID = 1;

export type SignInServices = Pick<
  AccountServices,
  'siweChallenge' | 'siweVerify' | 'refreshSession' | 'logout' | 'sessionStatus'
>;

/**
 * Sign-in with Ethereum and the session it opens: challenge, verify, refresh, logout, status
 * (docs/api-contract.md#siwe-session).
 * @example const { siweChallenge } = signInServices({ ...params, now: Date.now })
 */
export function signInServices(p: AccountServicesParams & { now: () => number }): SignInServices {
  const { store, now } = p;
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
  };
}
