import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BatchRow, RouteRow, RouteTable } from '../../rest-compat/route-row.js';
import type { AccessGate, AccessRoute } from '../access/access-gate.js';
import type { BazaarExtension } from '../access/bazaar-discovery.js';
import { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/error-envelope.js';
import { batchInnerCallHeader, isBatchable, isBatchInnerCall } from './batch-inner-call.js';
import { fastifyPath, parseRouteInput, requestResource } from './rest-routes.js';
import { runAdmitted } from './run-admitted.js';

/** One answer of a batch: the inner path's own status and body. */
export interface BatchResult {
  path: string;
  status: number;
  body: unknown;
}

/** Where relative inner paths are resolved; never contacted (inner requests are injected, not sent). */
const INNER_BASE = 'http://batch.invalid';
/** Relative path-absolute references only: no scheme, no `//host`, no backslash, no whitespace or control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
const RELATIVE_PATH = /^\/(?![/\\])[^\s\\#\u0000-\u001f\u007f]*$/;

/** The credentials an inner request carries: the caller's, so that per-route access sees the same caller. */
const IDENTITY_HEADERS = ['x-api-key', 'authorization'] as const;

interface RowPattern {
  row: RouteRow;
  regex: RegExp;
  /** Literal characters of the template: the most literal match wins, as in fastify's static-first routing. */
  literal: number;
}

function rowPattern(row: RouteRow): RowPattern {
  const source = row.path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { row, regex: new RegExp(`^${source}$`), literal: row.path.replace(/\{[^}]+\}/g, '').length };
}

/**
 * The table row an inner path reaches and the URL to inject, or the per-item error: an absolute or malformed
 * path is a 400, a path of no GET row a 404 (400 when only another method serves it), a row that may not run in
 * a batch a 403.
 */
function innerTarget(patterns: readonly RowPattern[], asked: string): { url: string; row: RouteRow } | ApiError {
  if (!RELATIVE_PATH.test(asked)) {
    return new ApiError(
      'INVALID_PARAMETER',
      'path must be a relative path of this API starting with a single /, e.g. /api/price/ETH',
    );
  }
  const parsed = new URL(asked, INNER_BASE);
  if (parsed.origin !== INNER_BASE)
    return new ApiError('INVALID_PARAMETER', 'path must be a relative path of this API');
  const matching = patterns.filter((p) => p.regex.test(parsed.pathname)).sort((a, b) => b.literal - a.literal);
  const get = matching.find((p) => p.row.method === 'GET');
  if (!get) {
    return matching.length > 0
      ? new ApiError(
          'INVALID_PARAMETER',
          `only GET routes can be batched; ${matching[0]!.row.method} ${matching[0]!.row.path} cannot`,
        )
      : new ApiError('NOT_FOUND', 'no GET route of this API at this path');
  }
  if (!isBatchable(get.row))
    return new ApiError('FORBIDDEN', `${get.row.path} (${get.row.tier} tier) cannot run inside a batch`);
  return { url: `${parsed.pathname}${parsed.search}`, row: get.row };
}

const errorResult = (path: string, err: ApiError): BatchResult => {
  const rendered = renderError(err, 'full');
  return { path, status: rendered.status, body: rendered.body };
};

async function runInner(
  app: FastifyInstance,
  outer: FastifyRequest,
  patterns: readonly RowPattern[],
  path: string,
  index: number,
): Promise<BatchResult> {
  const target = innerTarget(patterns, path);
  if (target instanceof ApiError) return errorResult(path, target);
  const headers: Record<string, string> = {
    ...batchInnerCallHeader(outer.askedAt),
    'x-request-id': `${outer.id}.${index}`,
  };
  for (const name of IDENTITY_HEADERS) {
    const value = outer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // The inner request comes from the caller's address as the server resolved it (X-Forwarded-For under TRUST_PROXY).
  const res = await app.inject({ method: 'GET', url: target.url, headers, remoteAddress: outer.ip });
  const type = String(res.headers['content-type'] ?? '');
  let body: unknown = res.body;
  if (type.startsWith('application/json')) {
    try {
      body = JSON.parse(res.body);
    } catch {
      body = res.body;
    }
  }
  return { path, status: res.statusCode, body };
}

/**
 * POST /api/batch (the table's `batch` rows): validate → admit ONCE at the row's tier (Heavy) → run each inner
 * path through the app itself, in parallel, marked so that it is identified but not counted again → the
 * answers in order. The batch holds the caller's concurrency slot until every inner request is done.
 * @example registerBatchRoutes(app, { table, access })
 */
export function registerBatchRoutes(
  app: FastifyInstance,
  deps: {
    table: RouteTable;
    access: AccessGate;
    publicBaseUrl?: string | undefined;
    /** x402 bazaar discovery of each priced row, offered with its 402s. */
    discovery?: ReadonlyMap<RouteRow, BazaarExtension>;
  },
): void {
  const patterns = deps.table.rows.map(rowPattern);
  for (const row of deps.table.rows) {
    if (row.kind !== 'batch') continue;
    const batchRow: BatchRow = row;
    const route: AccessRoute = { ...batchRow, discovery: deps.discovery?.get(batchRow) };
    app.route({
      method: batchRow.method,
      url: fastifyPath(batchRow.path),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (isBatchInnerCall(request)) throw new ApiError('FORBIDDEN', 'a batch cannot contain a batch');
        const input = parseRouteInput(batchRow.params, request);
        const requests = input.body.requests as { path: string }[];
        if (requests.length > batchRow.maxRequests) {
          throw new ApiError('INVALID_PARAMETER', `a batch holds at most ${batchRow.maxRequests} requests`);
        }
        const resource = () => requestResource(request, deps.publicBaseUrl);
        // The batch holds the caller's concurrency slot until every inner request is done; a paid batch is settled
        // once, for the batch, before its answers are sent (inner calls carry no payment).
        const { value: results, settled } = await runAdmitted({
          admit: () => deps.access.admit({ ip: request.ip, headers: request.headers, resource }, route),
          run: (decision) => {
            reply.headers(decision.headers);
            return Promise.all(requests.map((r, i) => runInner(app, request, patterns, r.path, i)));
          },
        });
        if (settled) reply.headers(settled.headers);
        return reply.header('Cache-Control', 'no-store').send({ results, count: results.length });
      },
    });
  }
}
