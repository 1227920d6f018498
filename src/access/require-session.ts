import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import { ApiError } from '../errors/api-error.js';

/** A signed-in caller's wallet and session. */
export interface SignedIn {
  wallet: `0x${string}`;
  session: NonNullable<CallerIdentity['session']>;
}

/**
 * docs/api-contract.md#siwe-session: sessions enable /api/me, /api/me/usage, /api/auth/session and key management.
 * @example const { wallet } = requireSession(caller) // throws UNAUTHORIZED without a SIWE session
 */
export function requireSession(caller: CallerIdentity): SignedIn {
  if (caller.mode !== 'siwe' || !caller.wallet || !caller.session) {
    throw new ApiError('UNAUTHORIZED', 'a SIWE session token is required: Authorization: Bearer <token>');
  }
  return { wallet: caller.wallet, session: caller.session };
}

/** Milliseconds since the epoch as the contract writes times. */
export const iso = (ms: number): string => new Date(ms).toISOString();
