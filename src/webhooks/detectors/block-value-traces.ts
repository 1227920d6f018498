import {
  BaseError,
  getAddress,
  type Hex,
  HttpRequestError,
  hexToBigInt,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  toHex,
} from 'viem';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';

/** How a node traces a block: Parity-style `trace_block` (anvil, Erigon, Reth, Nethermind) or geth's callTracer. */
export type BlockTraceMethod = 'trace_block' | 'debug_traceBlockByNumber';

/** ETH a contract moved inside a transaction: a call with value, a creation with value, or a self-destruct's balance. */
export interface InternalValueMove {
  transactionHash: Hex;
  /** Where in the transaction's call tree: child indexes from the top-level call (Parity's `traceAddress`). */
  traceAddress: number[];
  from: string;
  to: string;
  value: bigint;
}

/** Traces one block for the ETH contracts moved in it; `transactions` are the block's hashes in order. */
export type BlockTracer = (block: bigint, transactions: readonly Hex[]) => Promise<InternalValueMove[]>;

/** One `trace_block` entry (Parity style): a flat list, each frame with its position in its transaction's tree. */
interface ParityTrace {
  type: 'call' | 'create' | 'suicide' | 'reward';
  action: {
    callType?: string;
    from?: Hex;
    to?: Hex;
    value?: Hex;
    address?: Hex;
    refundAddress?: Hex;
    balance?: Hex;
  };
  result?: { address?: Hex } | null;
  error?: string;
  traceAddress: number[];
  transactionHash?: Hex;
}

/** One callTracer frame (geth style): nested, failed frames carry `error`. */
interface CallFrame {
  type: string;
  from: Hex;
  to?: Hex;
  value?: Hex;
  error?: string;
  calls?: CallFrame[];
}

type TraceRequest = (client: ChainRpcClient, block: bigint) => Promise<unknown>;

const traceRequests: Record<BlockTraceMethod, TraceRequest> = {
  trace_block: (client, block) => client.request({ method: 'trace_block', params: [toHex(block)] } as never),
  debug_traceBlockByNumber: (client, block) =>
    client.request({ method: 'debug_traceBlockByNumber', params: [toHex(block), { tracer: 'callTracer' }] } as never),
};

/** HTTP statuses that say the endpoint does not serve the method (not found, not allowed, not implemented). */
const REFUSING_STATUSES = new Set([404, 405, 501]);

/**
 * Whether the node refused the method for good: JSON-RPC -32601 (method not found) or -32004 (method not supported),
 * or an HTTP 404, 405 or 501. Anything else (geth's -32000 "execution timeout" or "header not found", a rate limit,
 * a transport failure, an unmapped code) says nothing about the method yet.
 */
function refusedMethod(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  const refusal = err.walk(
    (e) =>
      e instanceof MethodNotFoundRpcError ||
      e instanceof MethodNotSupportedRpcError ||
      (e instanceof HttpRequestError && REFUSING_STATUSES.has(e.status ?? 0)),
  );
  return refusal !== null;
}

/**
 * Which trace method the node answers, asked once with `block`: `trace_block` first, then geth's callTracer; null when
 * it refuses both (see `refusedMethod`). Any other failure (an execution timeout, a missing header, transport, rate
 * limit, 5xx) is thrown: the answer is not known yet, and the question is asked again later.
 * @example const method = await detectBlockTraceMethod(client, 100n) // 'trace_block' on anvil
 */
export async function detectBlockTraceMethod(client: ChainRpcClient, block: bigint): Promise<BlockTraceMethod | null> {
  for (const method of ['trace_block', 'debug_traceBlockByNumber'] as const) {
    try {
      if (Array.isArray(await traceRequests[method](client, block))) return method;
    } catch (err) {
      if (!refusedMethod(err)) throw err;
    }
  }
  return null;
}

const key = (hash: string, path: number[]) => `${hash}:${path.join('.')}`;

/** Value moves of Parity traces below the top-level call, skipping frames that failed or sit under one that did. */
function parityMoves(traces: ParityTrace[]): InternalValueMove[] {
  const failed = new Set(traces.filter((t) => t.error).map((t) => key(t.transactionHash ?? '', t.traceAddress)));
  const moves: InternalValueMove[] = [];
  for (const t of traces) {
    const hash = t.transactionHash;
    if (!hash || t.traceAddress.length === 0) continue;
    const path = t.traceAddress;
    if (path.some((_, i) => failed.has(key(hash, path.slice(0, i)))) || failed.has(key(hash, path))) continue;
    const { action } = t;
    let move: Omit<InternalValueMove, 'transactionHash' | 'traceAddress'> | undefined;
    if (t.type === 'call' && action.callType === 'call' && action.from && action.to && action.value) {
      move = { from: action.from, to: action.to, value: hexToBigInt(action.value) };
    } else if (t.type === 'create' && action.from && action.value && t.result?.address) {
      move = { from: action.from, to: t.result.address, value: hexToBigInt(action.value) };
    } else if (t.type === 'suicide' && action.address && action.refundAddress && action.balance) {
      move = { from: action.address, to: action.refundAddress, value: hexToBigInt(action.balance) };
    }
    if (move && move.value > 0n) moves.push({ ...move, transactionHash: hash, traceAddress: path });
  }
  return moves;
}

/** Value moves of one transaction's callTracer tree below its top frame; a failed frame's subtree moved nothing. */
function callFrameMoves(frame: CallFrame, hash: Hex, path: number[], moves: InternalValueMove[]): void {
  if (frame.error) return;
  const type = frame.type.toUpperCase();
  const moving = type === 'CALL' || type === 'CREATE' || type === 'CREATE2' || type === 'SELFDESTRUCT';
  if (path.length > 0 && moving && frame.to && frame.value) {
    const value = hexToBigInt(frame.value);
    if (value > 0n) moves.push({ transactionHash: hash, traceAddress: path, from: frame.from, to: frame.to, value });
  }
  frame.calls?.forEach((child, i) => {
    callFrameMoves(child, hash, [...path, i], moves);
  });
}

/**
 * The ETH contracts moved in one block (internal transfers: not the transactions' own value, which the block's
 * transactions tell), with addresses checksummed. `transactions` are the block's hashes in order, for nodes whose
 * callTracer answers omit them.
 * @example const moves = await blockInternalValueMoves({ client, method: 'trace_block', block: 12n, transactions })
 */
export async function blockInternalValueMoves(p: {
  client: ChainRpcClient;
  method: BlockTraceMethod;
  block: bigint;
  transactions: readonly Hex[];
}): Promise<InternalValueMove[]> {
  const answer = await traceRequests[p.method](p.client, p.block);
  let moves: InternalValueMove[];
  if (p.method === 'trace_block') {
    moves = parityMoves((answer as ParityTrace[] | null) ?? []);
  } else {
    moves = [];
    ((answer as { txHash?: Hex; result: CallFrame }[] | null) ?? []).forEach((entry, i) => {
      const hash = entry.txHash ?? p.transactions[i];
      if (hash) callFrameMoves(entry.result, hash, [], moves);
    });
  }
  return moves.map((m) => ({ ...m, from: getAddress(m.from), to: getAddress(m.to) }));
}
