import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { OperationRow, RouteInput, RouteParams, RouteRow } from '../../rest-compat/route-row.js';
import { type AccessGate, type AccessRoute, admitsAtOnce } from '../access/access-gate.js';
import type { BazaarExtension } from '../access/bazaar-discovery.js';
import type { AccessRequest } from '../access/identify-caller.js';
import { partError } from '../arguments/parse-argument.js';
import { invalidParameter } from '../errors/api-error.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { BoundedMemo } from '../memo/bounded-memo.js';
import { admitBatchInnerCall, isBatchInnerCall } from './batch-inner-call.js';
import { withCcipCodes } from './ccip-route-input.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { isCacheableRow, type ResponseCache, responseCacheKey } from './response-cache.js';
import { runAdmitted } from './run-admitted.js';
import { runOperationRow } from './run-operation-row.js';

/** Micro-cache keys remembered per row, by URL; longer URLs have their key made on every call. */
const CACHE_KEYS_KEPT = 64;
const CACHE_KEY_URL_MAX = 256;

/** The content type of every REST row's answer. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Absolute URL of the request as the caller reached it: x402's `resource`. */
export function requestResource(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  return `${publicBaseUrl ?? `${request.protocol}://${request.host}`}${request.url}`;
}

/**
 * An HTTP request (a REST row's, a /graphql call's) as the access gate reads it: its client IP and headers, and its
 * absolute URL (x402's `resource`) made only when a payment offer asks for it. One object per call, with no closure
 * made for it, and the IP found only when the gate asks for it (a free call without credentials never does).
 */
export class RestAccessRequest implements AccessRequest {
  constructor(
    private readonly request: FastifyRequest,
    private readonly publicBaseUrl: string | undefined,
  ) {}

  get ip(): string {
    return this.request.ip;
  }

  get headers(): FastifyRequest['headers'] {
    return this.request.headers;
  }

  resource(): string {
    return requestResource(this.request, this.publicBaseUrl);
  }
}

/** `/api/ens/{name}` (the documented style, docs/api-contract.md#endpoints) → `/api/ens/:name` (fastify's). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

function parsePart(
  schema: z.ZodObject | undefined,
  raw: unknown,
  where: 'path' | 'query' | 'body',
  wholeName: string,
): Record<string, unknown> {
  if (!schema) return {};
  const value = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : where === 'body' ? undefined : {};
  if (value === undefined) throw invalidParameter('body must be a JSON object');
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw partError(parsed.error, wholeName);
}

/**
 * Validates a call's path, query and body against the row's schemas, wherever the call came from (an HTTP request,
 * an MCP tool call): the first problem is a 400 INVALID_PARAMETER worded `parameter <name>: …`, as GraphQL words it.
 * A rule over a part as a whole names the part (`parameter body: …`), or `wholeName` when the caller sent no such
 * part: an MCP tool's arguments are flat, so there it is `parameter arguments: …`.
 * @example parseRouteParts(row.params, { path: { name: 'alice.eth' }, query: {}, body: undefined })
 */
export function parseRouteParts(
  params: RouteParams | undefined,
  raw: { path: unknown; query: unknown; body: unknown },
  wholeName?: string,
): RouteInput {
  return {
    path: parsePart(params?.path, raw.path, 'path', wholeName ?? 'path'),
    query: parsePart(params?.query, raw.query, 'query', wholeName ?? 'query'),
    body: parsePart(params?.body, raw.body, 'body', wholeName ?? 'body'),
  };
}

/** {@link parseRouteParts} of an HTTP request. */
export function parseRouteInput(params: RouteParams | undefined, request: FastifyRequest): RouteInput {
  return parseRouteParts(params, { path: request.params, query: request.query, body: request.body });
}

/**
 * Registers one fastify route per operation row: validate → access → one GraphQL operation through the
 * gateway → the root field's value as the body (null → 404).
 */
export function registerOperationRoutes(
  app: FastifyInstance,
  deps: {
    rows: readonly CompiledOperationRow[];
    gateway: InProcessGateway;
    access: AccessGate;
    contexts: GraphContextFactory;
    cache: ResponseCache;
    /** PUBLIC_BASE_URL: the origin of x402 `resource` URLs (else the request's). */
    publicBaseUrl?: string | undefined;
    /** x402 bazaar discovery of each priced row, offered with its 402s. */
    discovery?: ReadonlyMap<RouteRow, BazaarExtension>;
  },
): void {
  for (const compiled of deps.rows) {
    const row: OperationRow = compiled.row;
    const route: AccessRoute = { ...row, discovery: deps.discovery?.get(row) };
    const cacheControl = row.maxAge ? `public, max-age=${row.maxAge}` : 'no-store';
    // A row with maxAge answers the same to every caller for the same URL: its body may be reused briefly. The URL
    // alone decides such a GET row's input (no body, no CCIP codes), so a fresh body also vouches that it is valid.
    const cacheable = isCacheableRow(row);
    const ttlMs = (row.maxAge ?? 0) * 1000;
    const keyOf = responseCacheKey(row);
    // The key of each URL seen most recently: a URL decides the params and query its key is made of, and the key kept
    // is a flat string whose hash is known, where a new one is concatenated, flattened and hashed on every call.
    const keyByUrl = new BoundedMemo<string, string>(CACHE_KEYS_KEPT);
    const cacheKeyOf = (request: FastifyRequest): string => {
      const url = request.url;
      if (url.length > CACHE_KEY_URL_MAX) return keyOf(request);
      let key = keyByUrl.peek(url);
      if (key === undefined) {
        key = keyOf(request);
        keyByUrl.set(url, key);
      }
      return key;
    };
    /**
     * The admitted path (admit → run → settle → release): a body that is not rendered yet is validated and rendered,
     * or awaited when its render is under way; `ready` is a fresh rendered body's bytes, sent as they are.
     */
    const answer = async (request: FastifyRequest, reply: FastifyReply, cacheKey: string, ready?: Buffer) => {
      const cached = ready === undefined && cacheable ? deps.cache.fresh(cacheKey) : undefined;
      let input: RouteInput | undefined;
      if (ready === undefined && cached === undefined) {
        const parse = () => parseRouteInput(row.params, request);
        input = row.envelope === 'ccip' ? withCcipCodes(parse, request) : parse();
      }
      const caller = new RestAccessRequest(request, deps.publicBaseUrl);
      const render = async () =>
        JSON.stringify(
          await runOperationRow({
            compiled,
            input: input!,
            gateway: deps.gateway,
            context: deps.contexts.create(request),
          }),
        );
      const { value: body, settled } = await runAdmitted<string | Buffer>({
        // An inner request of POST /api/batch is identified but not counted again (src/http/batch-inner-call.ts).
        admit: () =>
          isBatchInnerCall(request) ? admitBatchInnerCall(deps.access, caller, row) : deps.access.admit(caller, route),
        run: (decision) => {
          reply.headers(decision.headers);
          if (ready !== undefined) return Promise.resolve(ready);
          return cached ?? (cacheable ? deps.cache.get(cacheKey, ttlMs, render) : render());
        },
        // An API key's concurrency slot is held until the response is done (or the connection drops).
        holdSlot: (release) => reply.raw.once('close', release),
      });
      reply.header('cache-control', cacheControl);
      if (settled) reply.headers(settled.headers);
      return reply.type(JSON_TYPE).send(body);
    };
    app.route({
      method: row.method,
      url: fastifyPath(row.path),
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        const cacheKey = cacheable ? cacheKeyOf(request) : '';
        const ready = cacheable ? deps.cache.ready(cacheKey) : undefined;
        // A fresh body of a free row called without credentials: the gate's decision is fixed (no headers, nothing to
        // count, release or settle; an inner call of a batch gets the same), so the answer is the admitted path's,
        // sent now with no promise, closure or decision made for it. This is the hot path of a cached free row.
        if (ready !== undefined) {
          if (admitsAtOnce(request, route)) {
            reply.header('cache-control', cacheControl).type(JSON_TYPE).send(ready);
            return;
          }
          // A fresh body of a counted row, called by a caller the gate counts at once (anonymous, on SQLite): its
          // decision holds nothing to release, settle or refund, so the admitted path comes down to its headers and
          // the body, sent now. A refusal is thrown as the admitted path throws it. An inner call of a batch is not
          // counted again: it takes the admitted path.
          const decision = isBatchInnerCall(request)
            ? undefined
            : deps.access.admitNow(new RestAccessRequest(request, deps.publicBaseUrl), route);
          if (decision !== undefined) {
            reply.headers(decision.headers);
            reply.header('cache-control', cacheControl).type(JSON_TYPE).send(ready);
            return;
          }
        }
        return answer(request, reply, cacheKey, ready);
      },
    });
  }
}
