import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { GraphContext } from '../../../subgraphs/shared/graph-context.js';
import type { AccessGate } from '../../access/access-gate.js';
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
    const cacheKey =
      deps.cache && isCacheableRow(tool.compiled.row) ? `mcp ${tool.name} ${JSON.stringify(call.arguments ?? {})}` : '';
    const cached = cacheKey ? deps.cache!.fresh(cacheKey) : undefined;
    const input = cached === undefined ? toolInput(tool, call.arguments) : undefined;
    const sent = metaPayment(call.meta);
    const payment = sent?.payment;
    const request: AccessRequest = {
      ip: call.caller.ip,
      headers: call.caller.headers,
      resource: () => tool.resourceUrl,
      ...(payment ? { payment } : {}),
    };
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
    if (!(err instanceof ApiError)) deps.log.error({ err, tool: tool.name }, 'tool call failed');
    return errorResult(toApiError(err));
  }
}
