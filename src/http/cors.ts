import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
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
 * CORS on every route (@fastify/cors): `origins` (CORS_ORIGINS) may call from a browser, without credentials, since
 * callers authenticate with headers (X-API-Key, Authorization, X-PAYMENT), never cookies. A preflight (OPTIONS) to any
 * path is answered 204 with the methods and the headers the browser asks for, and is never counted.
 * @example await registerCors(app, config.corsOrigins)
 */
export async function registerCors(app: FastifyInstance, origins: '*' | readonly string[]): Promise<void> {
  await app.register(fastifyCors, {
    origin: origins === '*' ? '*' : [...origins],
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // A bare OPTIONS (no Origin) gets the same 204, not the plugin's plain-text 400 outside our envelope.
    strictPreflight: false,
  });
}
