import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Tier } from '../../rest-compat/route-row.js';
import type { AccessDecision, AccessGate } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import { ApiError } from '../errors/api-error.js';
import type { AskedAt } from '../sources/rpc/asked-at.js';

/**
 * Marks the requests POST /api/batch injects into the app itself. The mark is a secret made at start and never
 * sent out, on a request that only in-process injection can make (light-my-request's, never a socket's): a
 * caller cannot forge it, and a request without it is counted as usual.
 */
const INNER_CALL_HEADER = 'x-batch-inner-call';
const INNER_CALL_TOKEN = randomBytes(32);
/** When the batch arrived, which its inner requests carry: the caller asked for all of them then. */
const OUTER_ASKED_AT_HEADER = 'x-batch-asked-at';

/** Tiers stricter than Heavy per call: a batch must not multiply them (sign-in, key management, registrations). */
const UNBATCHABLE_TIERS: ReadonlySet<Tier> = new Set(['auth', 'write']);

/** The headers that mark one inner request of a batch, and carry when the batch (`outer`) arrived. */
export function batchInnerCallHeader(outer: AskedAt): Record<string, string> {
  return { [INNER_CALL_HEADER]: INNER_CALL_TOKEN.toString('hex'), [OUTER_ASKED_AT_HEADER]: String(outer) };
}

/** When the batch an inner request belongs to arrived; undefined for any other request. */
export function batchAskedAt(request: FastifyRequest): AskedAt | undefined {
  if (!isBatchInnerCall(request)) return undefined;
  const outer = Number(request.headers[OUTER_ASKED_AT_HEADER]);
  return Number.isSafeInteger(outer) ? outer : undefined;
}

/** Whether this request is an inner request of a batch this process is running. */
export function isBatchInnerCall(request: FastifyRequest): boolean {
  const injected = (request.raw as { isLightMyRequest?: unknown }).isLightMyRequest === true;
  const mark = request.headers[INNER_CALL_HEADER];
  if (!injected || typeof mark !== 'string') return false;
  const given = Buffer.from(mark, 'hex');
  return given.length === INNER_CALL_TOKEN.length && timingSafeEqual(given, INNER_CALL_TOKEN);
}

/** Whether a row may run inside a batch: GET rows outside the Auth and Write tiers. */
export function isBatchable(row: { method: string; tier: Tier }): boolean {
  return row.method === 'GET' && !UNBATCHABLE_TIERS.has(row.tier);
}

/**
 * Access for one inner request of a batch: the caller is identified again from the same credentials (a bad key
 * is still a 401; resolvers see the same caller) but NOT counted — the batch was counted once, at Heavy — and
 * no concurrency slot is taken (the batch holds one for its whole run).
 * @example const decision = await admitBatchInnerCall(access, { ip, headers }, row)
 */
export async function admitBatchInnerCall(
  access: AccessGate,
  req: AccessRequest,
  row: { method: string; tier: Tier },
): Promise<AccessDecision> {
  if (!isBatchable(row))
    throw new ApiError(
      'FORBIDDEN',
      'this route cannot run inside a batch (only GET routes outside the Auth and Write tiers)',
    );
  if (row.tier === 'free') return { caller: null, headers: {}, release: () => {} };
  return { caller: await access.identify(req), headers: {}, release: () => {} };
}
