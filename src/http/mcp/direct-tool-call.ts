import type { IncomingHttpHeaders } from 'node:http';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool } from './agent-tools.js';
import { X402_MCP_PAYMENT_META, X402_PAYMENT_META } from './call-agent-tool.js';

/** A single tools/call of a known tool, as plain as stock clients send it: what the direct path answers. */
export interface DirectToolCall {
  id: string | number;
  tool: AgentTool;
  arguments: Record<string, unknown> | undefined;
  meta: Record<string, unknown> | undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** Whether a plain object's members are all among `keys` (a plain object has no inherited enumerable member). */
const hasOnly = (value: Record<string, unknown>, keys: ReadonlySet<string>): boolean => {
  for (const k in value) if (!keys.has(k)) return false;
  return true;
};

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
const META_KEYS: ReadonlySet<string> = new Set([X402_PAYMENT_META, X402_MCP_PAYMENT_META]);
const JSON_CONTENT_TYPE = /^application\/json(?:;\s*charset=utf-8)?$/;
/** What stock clients send, matched without the regular expression. */
const PLAIN_JSON = 'application/json';

/**
 * The request, when it is one the SDK's stateless transport and server would accept and hand to the tools/call
 * handler unchanged: Accept naming JSON and SSE, a JSON body, a supported (or absent) protocol version, one JSON-RPC
 * request (not a batch, no extra members) calling a listed tool with object arguments and at most an x402 payment in
 * `_meta`. Anything else — initialize, notifications, batches, unknown tools, every malformed message — is left to the
 * SDK, whose answers (and errors) stay the reference the direct path is tested against.
 * @example const call = directToolCall(request.headers, request.body, byName)
 */
export function directToolCall(
  headers: IncomingHttpHeaders,
  body: unknown,
  byName: ReadonlyMap<string, AgentTool>,
): DirectToolCall | undefined {
  const accept = headers.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return;
  const contentType = headers['content-type'];
  if (contentType === undefined || (contentType !== PLAIN_JSON && !JSON_CONTENT_TYPE.test(contentType))) return;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return;
  if (!isPlainObject(body) || !hasOnly(body, MESSAGE_KEYS)) return;
  const { id, params } = body;
  if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return;
  if (!isPlainObject(params) || !hasOnly(params, PARAMS_KEYS) || typeof params.name !== 'string') return;
  const tool = byName.get(params.name);
  if (!tool) return;
  const args = params.arguments;
  const meta = params._meta;
  if (args !== undefined && !isPlainObject(args)) return;
  if (meta !== undefined && (!isPlainObject(meta) || !hasOnly(meta, META_KEYS))) return;
  return { id: id as string | number, tool, arguments: args, meta };
}

/** The serialized, normalised form of each shared (frozen) result: a cached body's answer is encoded once. */
const serializedResults = new WeakMap<CallToolResult, string>();

/**
 * The JSON-RPC answer the SDK's server sends for a tools/call result: the result checked and normalised by the
 * SDK's own CallToolResult schema (as its Server does for every tools/call), then `{ result, jsonrpc, id }`. A frozen
 * result (call-agent-tool.ts shares one per cached body) is checked and serialized once.
 */
export function toolCallAnswer(id: string | number, result: CallToolResult): string {
  let serialized = serializedResults.get(result);
  if (serialized === undefined) {
    const checked = CallToolResultSchema.safeParse(result);
    if (!checked.success) {
      const error = {
        code: ErrorCode.InvalidParams,
        message: `Invalid tools/call result: ${checked.error instanceof Error ? checked.error.message : String(checked.error)}`,
      };
      return JSON.stringify({ jsonrpc: '2.0', id, error });
    }
    serialized = JSON.stringify(checked.data);
    if (Object.isFrozen(result)) serializedResults.set(result, serialized);
  }
  // What JSON.stringify({ result, jsonrpc: '2.0', id }) writes, with the result's JSON already made.
  return `{"result":${serialized},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}
