import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import { ApiError } from '../errors/api-error.js';
import { BoundedMemo } from '../memo/bounded-memo.js';
import { type ApiKeyRecord, apiKeyOwner, type Store } from '../store/store.js';
import { hashApiKey, looksLikeApiKey } from './api-key-secrets.js';
import type { AccessLimits, AccessMode } from './caller-limits.js';
import { anonymousNetwork } from './client-address.js';
import type { SessionTokens } from './session-tokens.js';
import type { PresentedPayment } from './x402-presented-payment.js';

export type { AccessMode };

/** Who is calling, as far as limits are concerned; API key callers carry their key's record. */
export interface Caller extends CallerIdentity {
  apiKey?: ApiKeyRecord;
}

/** What the access layer reads from a request; the HTTP layer fills it. */
export interface AccessRequest {
  /** Client IP: the socket address, or X-Forwarded-For only when TRUST_PROXY says so (fastify resolves it). */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** Absolute URL of the request (x402 `resource`), on routes that can be paid for; computed only for an offer. */
  resource?: () => string;
  /** A payment carried outside the headers (an MCP tool call's `_meta["x402/payment"]`); else the headers' one counts. */
  payment?: PresentedPayment;
}

export const invalidApiKey = (): ApiError =>
  new ApiError(
    'INVALID_API_KEY',
    'Invalid API Key: no active key matches the X-API-Key header (mistyped, revoked or rotated)',
  );

/** Anonymous callers remembered (the most recently seen client IPs). */
const ANONYMOUS_CALLERS_KEPT = 10_000;

/** An X-Forwarded-For entry that is no IP address cannot be counted as anyone: refused rather than trusted. */
const notAnAddress = (): ApiError =>
  new ApiError('INVALID_REQUEST', 'the client address (X-Forwarded-For) is not an IP address');

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** A header sent once; repeated headers are ambiguous credentials. */
function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : '';
  return value;
}

/**
 * Identifies the caller of one request. `endingSession`: the request only ends the caller's session (logout), so a
 * token of it that a refresh already replaced is still accepted: a logout racing a refresh ends the session either way.
 */
export type IdentifyCaller = ((req: AccessRequest, endingSession?: boolean) => Promise<Caller>) & {
  /** The caller of a request that sends no credentials (anonymous, by client IP), at once; throws as identify rejects. */
  anonymous?: (req: Pick<AccessRequest, 'ip'>) => Caller;
};

const sessionEnded = (): ApiError =>
  new ApiError('UNAUTHORIZED', 'the session was terminated (logged out); sign in again');
const tokenRefreshed = (): ApiError =>
  new ApiError('UNAUTHORIZED', 'this token was refreshed: use the token the refresh returned');

/**
 * docs/api-contract.md#authentication: an `X-API-Key` (header name in any case) is the key's caller, counted per key;
 * else a
 * `Authorization: Bearer` session token is the wallet's, counted per wallet; else the caller is anonymous, counted
 * per IP (IPv6 per `/ipv6Prefix` network, client-address.ts), with no store round trip. Credentials that are sent but
 * wrong are a 401, never a silent fall back to anonymous.
 * @example const identify = createCallerIdentifier({ store, tokens, limits }); (await identify(req)).mode
 */
export function createCallerIdentifier(p: {
  store: Pick<Store, 'findApiKeyByHash' | 'currentSessionToken'>;
  tokens: SessionTokens;
  limits: AccessLimits;
  /** Leading bits of an IPv6 address that make one anonymous caller (ANONYMOUS_IPV6_PREFIX, default 64). */
  ipv6Prefix?: number;
  now?: () => number;
}): IdentifyCaller {
  const now = p.now ?? Date.now;
  const ipv6Prefix = p.ipv6Prefix ?? 64;
  // One frozen caller per client IP, reused: its counter keys are then the same strings on every call.
  const anonymousByIp = new BoundedMemo<string, Caller>(ANONYMOUS_CALLERS_KEPT);
  const anonymous = (req: Pick<AccessRequest, 'ip'>): Caller => {
    const ip = req.ip;
    let caller = anonymousByIp.peek(ip);
    if (caller === undefined) {
      const network = anonymousNetwork(ip, ipv6Prefix);
      if (network === null) throw notAnAddress();
      caller = Object.freeze({ mode: 'anonymous', key: `ip:${network}`, limits: p.limits.modes.anonymous });
      anonymousByIp.set(ip, caller);
    }
    return caller;
  };
  const identify: IdentifyCaller = async (req, endingSession = false) => {
    const apiKey = single(req.headers['x-api-key']);
    if (apiKey !== undefined) {
      const key = apiKey.trim();
      if (!looksLikeApiKey(key)) throw invalidApiKey();
      const record = await p.store.findApiKeyByHash(hashApiKey(key));
      if (!record) throw invalidApiKey();
      return {
        mode: 'api_key',
        key: apiKeyOwner(record.id),
        wallet: record.wallet as `0x${string}`,
        apiKeyId: record.id,
        apiKey: record,
        limits: { daily: record.dailyLimit, perMinute: record.minuteLimit },
      };
    }
    const authorization = single(req.headers.authorization);
    const bearer = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (authorization !== undefined && bearer === undefined && /^bearer\b/i.test(authorization.trim())) {
      throw new ApiError('UNAUTHORIZED', 'the Authorization header must be "Bearer <session token>"');
    }
    if (bearer !== undefined) {
      const at = now();
      const claims = await p.tokens.verify({ token: bearer, now: at });
      const current = await p.store.currentSessionToken({ sessionId: claims.sessionId, now: at });
      if (current === null) throw sessionEnded();
      if (current !== claims.tokenId && !endingSession) throw tokenRefreshed();
      return {
        mode: 'siwe',
        key: `wallet:${claims.address.toLowerCase()}`,
        wallet: claims.address,
        session: { id: claims.sessionId, tokenId: claims.tokenId, expiresAt: claims.expiresAt },
        limits: p.limits.modes.siwe,
      };
    }
    return anonymous(req);
  };
  identify.anonymous = anonymous;
  return identify;
}
