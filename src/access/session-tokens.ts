import { randomBytes, randomUUID } from 'node:crypto';
import { type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { getAddress } from 'viem';
import { EVM_ADDRESS_PATTERN } from '../arguments/evm-address.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';

/** docs/api-contract.md#other-constants: a session lasts 24 hours. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

const ALGORITHM = 'HS256';
const ISSUER = 'chain-identity-api';
const AUDIENCE = 'siwe-session';
/** Store name of the generated signing secret, shared by every instance on the store. */
const SECRET_NAME = 'jwt-signing-secret';

/** What a valid session token says. */
export interface SessionClaims {
  address: `0x${string}`;
  /** The token's `sid`: the sign-in it belongs to, kept through refreshes; what logout ends. */
  sessionId: string;
  /** The token's `jti`: this token; a refresh replaces it with the next one. */
  tokenId: string;
  /** ms since epoch. */
  expiresAt: number;
}

export interface SessionTokens {
  /** A new token: of a new session, or the next token of `sessionId` (a refresh). */
  issue(p: { address: string; sessionId?: string; now: number }): Promise<{ token: string; claims: SessionClaims }>;
  /**
   * The claims of a token signed here and not expired; TOKEN_EXPIRED or UNAUTHORIZED (401) otherwise. Whether it is
   * still its session's current token is the caller's check (in the store).
   */
  verify(p: { token: string; now: number }): Promise<SessionClaims>;
}

export const tokenExpired = (): ApiError =>
  new ApiError('TOKEN_EXPIRED', 'the session has expired (24 hours); sign in again with SIWE');

export const invalidToken = (): ApiError => new ApiError('UNAUTHORIZED', 'the session token is not valid');

/**
 * Session JWTs (HS256, 24 h). The secret is JWT_SECRET, else one generated once and kept in the store, so every
 * instance sharing the store signs and checks with the same one; it is read once per process.
 * @example const tokens = createSessionTokens({ store, configuredSecret: config.auth.jwtSecret })
 */
export function createSessionTokens(p: {
  store: Pick<Store, 'getOrCreateSecret'>;
  configuredSecret: string | undefined;
}): SessionTokens {
  let key: Promise<Uint8Array> | undefined;
  const signingKey = (): Promise<Uint8Array> => {
    key ??= (async () => {
      const secret =
        p.configuredSecret ??
        (await p.store.getOrCreateSecret(SECRET_NAME, () => randomBytes(32).toString('base64url')));
      return new TextEncoder().encode(secret);
    })();
    // A store that failed once must not poison every later request.
    key.catch(() => {
      key = undefined;
    });
    return key;
  };

  return {
    async issue({ address, sessionId, now }) {
      const claims: SessionClaims = {
        address: getAddress(address),
        sessionId: sessionId ?? randomUUID(),
        tokenId: randomUUID(),
        // JWT times are whole seconds; expiresAt is what the token says.
        expiresAt: (Math.floor(now / 1000) + SESSION_TTL_MS / 1000) * 1000,
      };
      const token = await new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.address)
        .setJti(claims.tokenId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(claims.expiresAt / 1000)
        .sign(await signingKey());
      return { token, claims };
    },

    async verify({ token, now }) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await signingKey(), {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(now),
          requiredClaims: ['sub', 'jti', 'exp', 'sid'],
        }));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw tokenExpired();
        if (err instanceof joseErrors.JOSEError) throw invalidToken();
        throw err;
      }
      const { sub, jti, exp, sid } = payload;
      if (
        typeof sub !== 'string' ||
        !EVM_ADDRESS_PATTERN.test(sub) ||
        typeof jti !== 'string' ||
        typeof sid !== 'string' ||
        typeof exp !== 'number'
      ) {
        throw invalidToken();
      }
      return { address: getAddress(sub), sessionId: sid, tokenId: jti, expiresAt: exp * 1000 };
    },
  };
}
