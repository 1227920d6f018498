import fastifyCors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS } from '../../rest-compat/openapi/rate-limit-headers.js';

/** Response headers a browser script may read: limits, the 429's wait, the request id and the x402 offer and receipts. */
export const EXPOSED_HEADERS: readonly string[] = [
  ...Object.keys(RATE_LIMIT_HEADERS),
  'Retry-After',
  'X-Request-Id',
  'PAYMENT-REQUIRED',
  'X-PAYMENT-RESPONSE',
  'PAYMENT-RESPONSE',
];

/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * The Access-Control-Allow-Origin an answer to `origin` carries: `*` for any origin, the origin itself when it is on
 * the list, else none (the browser then keeps the answer from the calling script).
 * @example allowedOrigin(['https://app.example.com'], 'https://app.example.com') // 'https://app.example.com'
 */
export function allowedOrigin(origins: '*' | ReadonlySet<string>, origin: string | undefined): string | undefined {
  if (origins === '*') return '*';
  return origin !== undefined && origins.has(origin) ? origin : undefined;
}

/** The CORS headers of one answer, [lower-case name, value] in the order they are written. */
export type CorsHeaders = (request: FastifyRequest) => readonly (readonly [string, string])[];

/**
 * CORS on every route: `origins` (CORS_ORIGINS) may call from a browser, without credentials, since callers
 * authenticate with headers (X-API-Key, Authorization, X-PAYMENT), never cookies. @fastify/cors answers preflights
 * (OPTIONS to any path: 204 with the methods and the headers asked for, never counted); the other answers get the same
 * Allow-Origin and Expose-Headers from the returned function, which the request entry hook (request-entry.ts) applies,
 * since the plugin's own per-request hook costs ~3 µs (measured), 5 % of a cached call.
 * @example const cors = await registerCors(app, config.corsOrigins); cors(request) // [['access-control-allow-origin', '*'], …]
 */
export async function registerCors(app: FastifyInstance, origins: '*' | readonly string[]): Promise<CorsHeaders> {
  const allowed = origins === '*' ? '*' : new Set(origins);
  // In a context of its own, the plugin's hook runs for its OPTIONS route only.
  await app.register(async (preflights) => {
    await preflights.register(fastifyCors, {
      origin: (origin, callback) => callback(null, allowedOrigin(allowed, origin) ?? false),
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      exposedHeaders: [...EXPOSED_HEADERS],
      maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      // A bare OPTIONS (no Origin) gets the same 204, not the plugin's plain-text 400 outside our envelope.
      strictPreflight: false,
    });
  });
  const exposed = ['access-control-expose-headers', EXPOSED_HEADERS.join(', ')] as const;
  if (allowed === '*') {
    const any = [['access-control-allow-origin', '*'], exposed] as const;
    return () => any;
  }
  // The answer depends on the caller's Origin: shared caches must keep one copy per origin.
  const vary = ['vary', 'Origin'] as const;
  const other = [vary] as const;
  return (request) => {
    const origin = allowedOrigin(allowed, request.headers.origin);
    return origin === undefined ? other : [vary, ['access-control-allow-origin', origin], exposed];
  };
}
