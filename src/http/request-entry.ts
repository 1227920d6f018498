import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors/api-error.js';
import { type AskedAt, markAsked } from '../sources/rpc/asked-at.js';
import { batchAskedAt } from './batch-inner-call.js';
import type { CorsHeaders } from './cors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * When the request arrived, in the order head reads start in (src/sources/rpc/asked-at.ts): the chain reads made
     * for it take any head read started after it (src/sources/rpc/block-reads.ts). A batch's inner requests carry the
     * batch's.
     */
    askedAt: AskedAt;
  }
}

/** When a request arrived: now, or for an inner request of a batch, when the batch did. */
function arrivalOf(request: FastifyRequest): AskedAt {
  const injected = (request.raw as { isLightMyRequest?: unknown }).isLightMyRequest === true;
  return (injected ? batchAskedAt(request) : undefined) ?? markAsked();
}

/** What every request meets on its way in, before routing's hooks and its handler. */
export interface RequestEntry {
  /** The CORS headers of its answer (cors.ts). */
  cors: CorsHeaders;
  /** The security headers every API answer carries (security-headers.ts), lower-case names. */
  securityHeaders: Readonly<Record<string, string>>;
  /** Why a request on this connection is refused (connection-limits.ts); undefined: it is not. */
  refusal: (request: FastifyRequest) => ApiError | undefined;
}

/**
 * ONE onRequest hook for what every request gets as it arrives: its arrival mark (`request.askedAt`), X-Request-Id,
 * the CORS headers, the security headers (in that order), then the refusal of a connection past its limits, which is
 * answered with all of them. One callback hook instead of five: fastify's hook runner costs per hook, and this runs
 * on every request.
 * @example registerRequestEntry(app, { cors: await registerCors(app, origins), securityHeaders, refusal })
 */
export function registerRequestEntry(app: FastifyInstance, entry: RequestEntry): void {
  // Names and values in two flat arrays, walked by index: no iterator and no destructuring per header per request.
  const securityNames = Object.keys(entry.securityHeaders).map((name) => name.toLowerCase());
  const securityValues = Object.values(entry.securityHeaders);
  const { cors, refusal } = entry;
  app.decorateRequest('askedAt', 0);
  app.addHook('onRequest', (request, reply, done) => {
    request.askedAt = arrivalOf(request);
    reply.header('x-request-id', request.id);
    const corsHeaders = cors(request);
    for (let i = 0; i < corsHeaders.length; i++) reply.header(corsHeaders[i]![0], corsHeaders[i]![1]);
    for (let i = 0; i < securityNames.length; i++) reply.header(securityNames[i]!, securityValues[i]!);
    const refused = refusal(request);
    if (refused === undefined) done();
    else done(refused);
  });
}
