import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { JsonRpcError } from './json-rpc-error.js';

/** A tools/call request's params once checked: what the tool handler reads. */
export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const invalid = (message: string) => new JsonRpcError(ErrorCode.InvalidParams, message);

/**
 * Checks a tools/call's params, throwing JSON-RPC invalid params (-32602) with a plain message. The SDK parses the
 * request with the handler's schema before its own check, so a ZodError from a stock schema would leave as -32603
 * with zod's issue list: this check runs in that parse instead.
 * @example toolCallParams({ name: 'resolve_ens_name', arguments: { name: 'alice.eth' } })
 */
export function toolCallParams(params: unknown): ToolCallParams {
  if (!isObject(params)) throw invalid('tools/call needs params: an object with the tool name and its arguments');
  if (typeof params.name !== 'string')
    throw invalid('params.name must be a tool name (a string); tools/list names them');
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    throw invalid('params.arguments must be a JSON object of the tool arguments');
  }
  if (params._meta !== undefined && !isObject(params._meta)) throw invalid('params._meta must be a JSON object');
  return params as unknown as ToolCallParams;
}

/** tools/call as the server registers it: the method literal the SDK routes by, and params through {@link toolCallParams}. */
export const ToolCallRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z.unknown().transform(toolCallParams),
});
