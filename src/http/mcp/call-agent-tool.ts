import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { GraphContext } from '../../../subgraphs/shared/graph-context.js';
import { type AccessGate, admitsAtOnce } from '../../access/access-gate.js';
import type { AccessRequest } from '../../access/identify-caller.js';
import { paymentRequiredOf } from '../../access/payment-offer.js';
import type { PresentedPayment } from '../../access/x402-presented-payment.js';
import { ApiError } from '../../errors/api-error.js';
import { renderError, toApiError } from '../../errors/error-envelope.js';
import type { InProcessGateway } from '../../gateway/in-process-gateway.js';
import { isCacheableRow, type ResponseCache } from '../response-cache.js';
import { runAdmitted } from '../run-admitted.js';
import { runOperationRow } from '../run-operation-row.js';
import type { AgentTool } from './agent-tools.js';
import { toolInput } from './tool-arguments.js';
import { mayCall } from './tool-callers.js';

/** `_meta` keys of x402's MCP transport. */
export const X402_PAYMENT_META = 'x402/payment';
export const X402_PAYMENT_RESPONSE_META = 'x402/payment-response';
/**
 * `_meta` keys of the npm `x402-mcp` client (x402 v1): its payment is the X-PAYMENT header's base64 string, and its
 * receipt is read from the dotted response key.
 */
export const X402_MCP_PAYMENT_META = 'x402.payment';
export const X402_MCP_PAYMENT_RESPONSE_META = 'x402.payment-response';

/**
 * The payment a call's `_meta` carries, under x402's MCP key (a payload object) or x402-mcp's (a base64 string, or a
 * payload object); both at once are ambiguous and refused as a malformed payment. `receiptKey`: where its receipt goes.
 */
export function metaPayment(
  meta: Record<string, unknown> | undefined,
): { payment: PresentedPayment; receiptKey: string } | undefined {
  const standard = meta?.[X402_PAYMENT_META];
  const dotted = meta?.[X402_MCP_PAYMENT_META];
  if (standard === undefined && dotted === undefined) return undefined;
  if (standard !== undefined && dotted !== undefined) {
    return { payment: { header: 'X-PAYMENT', value: '' }, receiptKey: X402_PAYMENT_RESPONSE_META };
  }
  if (standard !== undefined) {
    return { payment: { header: 'x402/payment', payload: standard }, receiptKey: X402_PAYMENT_RESPONSE_META };
  }
  const payment: PresentedPayment =
    typeof dotted === 'string' ? { header: 'X-PAYMENT', value: dotted } : { header: 'x402/payment', payload: dotted };
  return { payment, receiptKey: X402_MCP_PAYMENT_RESPONSE_META };
}

export interface AgentToolCall {
  tool: AgentTool;
  arguments: unknown;
  /** The call's `_meta`: `x402/payment` (or x402-mcp's `x402.payment`) carries a payment for it. */
  meta: Record<string, unknown> | undefined;
  /** The /mcp request's client address and credentials (X-API-Key or Authorization: Bearer). */
  caller: Pick<AccessRequest, 'ip' | 'headers'>;
}

export interface AgentToolDeps {
  access: AccessGate;
  gateway: InProcessGateway;
  /** A fresh GraphQL context for the /mcp request (loaders, caller). */
  context: () => GraphContext;
  /** The REST rows' micro-cache (response-cache.ts): a cacheable row's body, reused for the same arguments. */
  cache?: ResponseCache;
  log: Pick<Logger, 'error'>;
}

/** Refusal of a Write-tier tool to a caller its row does not take, as its REST path refuses it. */
function needsCredentials(name: string, needs: 'session' | 'wallet'): ApiError {
  return new ApiError(
    'UNAUTHORIZED',
    needs === 'session'
      ? `${name} needs a SIWE session: send Authorization: Bearer <token>`
      : `${name} needs a SIWE session (Authorization: Bearer <token>) or an API key (X-API-Key)`,
  );
}

/** A tool's answer from its body's JSON: the body as `structuredContent` (an object) and the same JSON as text. */
function dataResult(json: string): CallToolResult {
  const structured = json.startsWith('{');
  return {
    content: [{ type: 'text', text: json }],
    ...(structured ? { structuredContent: JSON.parse(json) as Record<string, unknown> } : {}),
  };
}

/** The result of each cached body, by the cache's promise of it: the calls within the body's second share one. */
const sharedResults = new WeakMap<Promise<string>, CallToolResult>();

/**
 * The result of a cached body, made once per cache entry and frozen: a shared result is never changed (a receipt goes
 * on a copy), and direct-tool-call.ts serializes a frozen result only once.
 */
async function sharedResult(body: Promise<string>): Promise<CallToolResult> {
  const json = await body;
  let result = sharedResults.get(body);
  if (!result) {
    result = Object.freeze(dataResult(json));
    sharedResults.set(body, result);
  }
  return result;
}

/**
 * A refused call as a tool error (never a protocol error): a 402 is x402's MCP form (PaymentRequired as
 * `structuredContent`, and wrapped in `x402/error` in the first text), and the same offer in x402 v1 as the second
 * text (`{x402Version: 1, error, accepts}`, what the npm x402-mcp client's agents read); anything else is the API's
 * error envelope, from the one renderer, as text.
 */
export function errorResult(err: ApiError): CallToolResult {
  const offer = paymentRequiredOf(err);
  if (offer) {
    const wrapped = { 'x402/error': { code: 402, message: err.message, data: offer } };
    const v1 = { x402Version: 1, error: err.extra.error, accepts: err.extra.accepts };
    return {
      isError: true,
      structuredContent: offer as unknown as Record<string, unknown>,
      content: [
        { type: 'text', text: JSON.stringify(wrapped) },
        { type: 'text', text: JSON.stringify(v1) },
      ],
    };
  }
  const { status, body } = renderError(err, 'full');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status, ...body }) }] };
}

/** The micro-cache key of a call of a cacheable row's tool: the arguments alone decide its input. */
function cacheKeyOf(call: AgentToolCall): string {
  return `mcp ${call.tool.name} ${JSON.stringify(call.arguments ?? {})}`;
}

/** The call as the access gate reads it: the /mcp request's address and credentials, and the payment `_meta` carries. */
function accessRequestOf(call: AgentToolCall, payment: PresentedPayment | undefined): AccessRequest {
  return {
    ip: call.caller.ip,
    headers: call.caller.headers,
    resource: () => call.tool.resourceUrl,
    ...(payment ? { payment } : {}),
  };
}

/** A call that threw (a refusal, or a failure logged here) as its tool error. */
function failedCall(err: unknown, tool: AgentTool, deps: AgentToolDeps): CallToolResult {
  if (!(err instanceof ApiError)) deps.log.error({ err, tool: tool.name }, 'tool call failed');
  return errorResult(toApiError(err));
}

/**
 * Runs one tool call as its REST path would run: the row's validation, the same access gate (the caller's key or
 * session, else the client IP, counted at the row's tier; past the daily limit an x402 offer; a payment in
 * `_meta["x402/payment"]` or `_meta["x402.payment"]` verified and its nonce spent in the store), the row's GraphQL
 * operation, and settlement before the answer, whose receipt goes in `_meta["x402/payment-response"]` (or
 * `x402.payment-response`, the key of the payment's family).
 * @example const result = await callAgentTool({ tool, arguments: { name: 'alice.eth' }, meta, caller }, deps)
 */
export async function callAgentTool(call: AgentToolCall, deps: AgentToolDeps): Promise<CallToolResult> {
  const { tool } = call;
  try {
    // The arguments alone decide a cacheable row's input, so a fresh body also vouches that they are valid.
    const cacheKey = deps.cache && isCacheableRow(tool.compiled.row) ? cacheKeyOf(call) : '';
    const cached = cacheKey ? deps.cache!.fresh(cacheKey) : undefined;
    const input = cached === undefined ? toolInput(tool, call.arguments) : undefined;
    const sent = metaPayment(call.meta);
    const request = accessRequestOf(call, sent?.payment);
    const render = async () =>
      JSON.stringify(
        await runOperationRow({
          compiled: tool.compiled,
          input: input!,
          gateway: deps.gateway,
          context: deps.context(),
        }),
      );
    const ttlMs = (tool.compiled.row.maxAge ?? 0) * 1000;
    const { value: result, settled } = await runAdmitted({
      admit: async () => {
        if (tool.needs !== undefined) {
          const caller = await deps.access.identify(request);
          if (!mayCall(tool.needs, caller.mode)) throw needsCredentials(tool.name, tool.needs);
        }
        return deps.access.admit(request, tool.accessRoute);
      },
      run: async () => {
        const shared = cached ?? (cacheKey ? deps.cache!.get(cacheKey, ttlMs, render) : undefined);
        return shared ? sharedResult(shared) : dataResult(await render());
      },
    });
    return settled ? { ...result, _meta: { [sent!.receiptKey]: settled.receipt } } : result;
  } catch (err) {
    return failedCall(err, tool, deps);
  }
}

/**
 * {@link callAgentTool} at once, where nothing needs waiting for: a tool anyone may call whose body is fresh in the
 * micro-cache with its result made already, admitted by the gate at once (a free tool called without credentials, or
 * AccessGate.admitNow: a counted call without credentials or payment, on a store that decides at once). Such a decision holds nothing to release, settle or
 * refund, and the tool's answer carries no headers, so what is left of the admitted path is the shared result: the
 * same object, and the same refusal as a tool error, callAgentTool answers. Undefined (nothing identified or counted)
 * when the call needs callAgentTool.
 * @example const result = callAgentToolNow(call, deps) ?? (await callAgentTool(call, deps))
 */
export function callAgentToolNow(call: AgentToolCall, deps: AgentToolDeps): CallToolResult | undefined {
  const { tool } = call;
  if (tool.needs !== undefined || deps.cache === undefined || !isCacheableRow(tool.compiled.row)) return undefined;
  const body = deps.cache.fresh(cacheKeyOf(call));
  const result = body && sharedResults.get(body);
  if (result === undefined) return undefined;
  const request = accessRequestOf(call, metaPayment(call.meta)?.payment);
  // A free tool called without credentials is admitted with nothing to identify or count (its decision is fixed).
  if (admitsAtOnce(request, tool.accessRoute)) return result;
  try {
    const decision = deps.access.admitNow(request, tool.accessRoute);
    return decision && result;
  } catch (err) {
    return failedCall(err, tool, deps);
  }
}
