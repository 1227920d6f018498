import { type AccessGate, type AccessRoute, noRelease } from '../../access/access-gate.js';
import type { AccessRequest } from '../../access/identify-caller.js';
import { ApiError } from '../../errors/api-error.js';
import { renderError, toApiError } from '../../errors/error-envelope.js';
import { JsonRpcError } from './json-rpc-error.js';

/** JSON-RPC messages one POST /mcp may carry (the SDK's own bound is 100); /api/batch takes 20 calls too. */
export const MCP_MAX_BATCH = 20;
/** Bytes the free answers (documents, tool lists) of one batch may add up to: two OpenAPI documents, not a hundred. */
export const MCP_MAX_BATCH_ANSWER_BYTES = 1024 * 1024;
/** JSON-RPC's implementation-defined server error: a batch member refused by a limit. */
export const MCP_LIMIT_ERROR = -32000;

/** A free member of a batch is counted as a Light-tier call; it is not for sale, so past the quota it is refused. */
const BATCH_MEMBER: AccessRoute = { tier: 'light' };

/** What a batch's free members (tools/list, resources/*) answer to: the caller's quota and the batch's answer size. */
export interface BatchLimits {
  /** Counts one member against the caller; throws the refusal as a JSON-RPC error. */
  count(): Promise<void>;
  /** Takes `bytes` of the batch's answer; throws a JSON-RPC error when the answer would pass its bound. */
  reserve(bytes: number): void;
}

/** Whether a parsed /mcp body is a JSON-RPC batch longer than {@link MCP_MAX_BATCH}. */
export function isOversizedBatch(body: unknown): boolean {
  return Array.isArray(body) && body.length > MCP_MAX_BATCH;
}

/** The JSON-RPC answer to an oversized batch (sent with HTTP 400, as the SDK answers its own bound). */
export function oversizedBatchAnswer(): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return {
    jsonrpc: '2.0',
    error: { code: -32600, message: `Invalid Request: a batch carries at most ${MCP_MAX_BATCH} messages` },
    id: null,
  };
}

/** An ApiError (a 429, a 401 …) as the JSON-RPC error of one member, its envelope as `data`. */
function limitError(err: unknown): JsonRpcError {
  const apiError = toApiError(err);
  const { status, body } = renderError(apiError, 'full');
  return new JsonRpcError(MCP_LIMIT_ERROR, apiError.message, { status, ...body });
}

/**
 * The limits of one JSON-RPC batch: each free member is counted against the caller like a Light-tier call (a batch
 * of document reads is not free work), and the free answers together stay under `maxBytes`. Single messages (every
 * MCP client since protocol 2025-06-18, which dropped batching) are neither counted nor bounded.
 * @example const limits = batchLimits({ access, caller }); await limits.count(); limits.reserve(bytes)
 */
export function batchLimits(p: { access: AccessGate; caller: AccessRequest; maxBytes?: number }): BatchLimits {
  const maxBytes = p.maxBytes ?? MCP_MAX_BATCH_ANSWER_BYTES;
  let used = 0;
  return {
    async count() {
      let release = noRelease;
      try {
        release = (await p.access.admit(p.caller, BATCH_MEMBER)).release;
      } catch (err) {
        throw limitError(err);
      } finally {
        release();
      }
    },
    reserve(bytes) {
      if (used + bytes > maxBytes) {
        throw limitError(
          new ApiError(
            'PAYLOAD_TOO_LARGE',
            `this batch's answers would pass ${maxBytes} bytes: send this request on its own or in a smaller batch`,
          ),
        );
      }
      used += bytes;
    },
  };
}
