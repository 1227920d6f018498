import { createPublicClient, custom, getAddress, type Hex, HttpRequestError, RpcRequestError, toHex } from 'viem';
import { mainnet } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import type { ChainRpcClient } from '../../src/sources/rpc/chain-clients.js';
import { blockInternalValueMoves, detectBlockTraceMethod } from '../../src/webhooks/detectors/block-value-traces.js';
import { walletTransferEvents } from '../../src/webhooks/detectors/wallet-transfer-events.js';

const SENDER = `0x${'11'.repeat(20)}` as const;
const WALLET = `0x${'22'.repeat(20)}` as const;
const PAYEE = `0x${'33'.repeat(20)}` as const;
const LIBRARY = `0x${'44'.repeat(20)}` as const;
const CREATED = `0x${'55'.repeat(20)}` as const;
const REFUND = `0x${'66'.repeat(20)}` as const;
const TX = `0x${'aa'.repeat(32)}` as const;
const REVERTED_TX = `0x${'bb'.repeat(32)}` as const;

type Answer = (method: string, params: unknown[]) => unknown;

/** A viem client over a node whose JSON-RPC answers `answer` gives (a thrown value is the node's error). */
function nodeAnswering(answer: Answer): ChainRpcClient {
  return createPublicClient({
    chain: mainnet,
    transport: custom(
      { request: async ({ method, params }) => answer(method, params as unknown[]) },
      { retryCount: 0 },
    ),
  }) as ChainRpcClient;
}

const parity = (
  traceAddress: number[],
  type: string,
  action: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  transactionHash: Hex = TX,
) => ({ type, action, traceAddress, transactionHash, blockNumber: 7, subtraces: 0, ...extra });

/**
 * One transaction, SENDER → WALLET with 10 wei, in which WALLET: [0] pays PAYEE 4 wei, but that call reverts, undoing
 * its own payment [0,0] of 1 wei onward; [1] pays PAYEE 2 wei; [2] delegatecalls LIBRARY (which moves nothing between
 * accounts); [3] creates CREATED with 3 wei, which [3,0] self-destructs its 3 wei to REFUND. A second transaction
 * reverted as a whole, its inner call included.
 */
const parityBlock = [
  parity([], 'call', { callType: 'call', from: SENDER, to: WALLET, value: toHex(10) }),
  parity([0], 'call', { callType: 'call', from: WALLET, to: PAYEE, value: toHex(4) }, { error: 'Reverted' }),
  parity([0, 0], 'call', { callType: 'call', from: PAYEE, to: REFUND, value: toHex(1) }),
  parity([1], 'call', { callType: 'call', from: WALLET, to: PAYEE, value: toHex(2) }),
  parity([2], 'call', { callType: 'delegatecall', from: WALLET, to: LIBRARY, value: toHex(10) }),
  parity([3], 'create', { from: WALLET, value: toHex(3) }, { result: { address: CREATED } }),
  parity([3, 0], 'suicide', { address: CREATED, refundAddress: REFUND, balance: toHex(3) }),
  parity(
    [],
    'call',
    { callType: 'call', from: SENDER, to: WALLET, value: toHex(5) },
    { error: 'Reverted' },
    REVERTED_TX,
  ),
  parity([0], 'call', { callType: 'call', from: WALLET, to: PAYEE, value: toHex(5) }, {}, REVERTED_TX),
];

/** The same block as geth's callTracer tells it; the second transaction's hash left out, as older geth does. */
const callTracerBlock = [
  {
    txHash: TX,
    result: {
      type: 'CALL',
      from: SENDER,
      to: WALLET,
      value: toHex(10),
      calls: [
        {
          type: 'CALL',
          from: WALLET,
          to: PAYEE,
          value: toHex(4),
          error: 'execution reverted',
          calls: [{ type: 'CALL', from: PAYEE, to: REFUND, value: toHex(1) }],
        },
        { type: 'CALL', from: WALLET, to: PAYEE, value: toHex(2) },
        { type: 'DELEGATECALL', from: WALLET, to: LIBRARY },
        {
          type: 'CREATE',
          from: WALLET,
          to: CREATED,
          value: toHex(3),
          calls: [{ type: 'SELFDESTRUCT', from: CREATED, to: REFUND, value: toHex(3) }],
        },
      ],
    },
  },
  {
    result: {
      type: 'CALL',
      from: SENDER,
      to: WALLET,
      value: toHex(5),
      error: 'execution reverted',
      calls: [{ type: 'CALL', from: WALLET, to: PAYEE, value: toHex(5) }],
    },
  },
];

const expectedMoves = [
  { transactionHash: TX, traceAddress: [1], from: getAddress(WALLET), to: getAddress(PAYEE), value: 2n },
  { transactionHash: TX, traceAddress: [3], from: getAddress(WALLET), to: getAddress(CREATED), value: 3n },
  { transactionHash: TX, traceAddress: [3, 0], from: getAddress(CREATED), to: getAddress(REFUND), value: 3n },
];

describe('internal ETH transfers from block traces', () => {
  it("trace_block: calls, creations and self-destructs with value below the top-level call; a reverted call's subtree and a delegatecall move nothing", async () => {
    const client = nodeAnswering((method) => (method === 'trace_block' ? parityBlock : null));
    const moves = await blockInternalValueMoves({ client, method: 'trace_block', block: 7n, transactions: [] });
    expect(moves).toEqual(expectedMoves);
  });

  it('geth callTracer tells the same moves at the same trace positions, so their event ids agree', async () => {
    const client = nodeAnswering((method) => (method === 'debug_traceBlockByNumber' ? callTracerBlock : null));
    const moves = await blockInternalValueMoves({
      client,
      method: 'debug_traceBlockByNumber',
      block: 7n,
      transactions: [TX, REVERTED_TX],
    });
    expect(moves).toEqual(expectedMoves);
  });
});

describe('which trace method the node answers, asked once', () => {
  const refuse = (method: string) => {
    throw Object.assign(new Error(`the method ${method} does not exist/is not available`), { code: -32601 });
  };

  it('trace_block when the node answers it', async () => {
    const client = nodeAnswering((method) => (method === 'trace_block' ? [] : refuse(method)));
    expect(await detectBlockTraceMethod(client, 1n)).toBe('trace_block');
  });

  it("geth's callTracer when trace_block is refused", async () => {
    const client = nodeAnswering((method) => (method === 'debug_traceBlockByNumber' ? [] : refuse(method)));
    expect(await detectBlockTraceMethod(client, 1n)).toBe('debug_traceBlockByNumber');
  });

  it('none when both are refused (top-level ETH only)', async () => {
    expect(await detectBlockTraceMethod(nodeAnswering(refuse), 1n)).toBeNull();
  });

  it('a node failing for now (503) is not taken as refusing: the question is asked again next step', async () => {
    const client = nodeAnswering(() => {
      throw new HttpRequestError({ url: 'https://rpc.example.org', status: 503 });
    });
    await expect(detectBlockTraceMethod(client, 1n)).rejects.toBeInstanceOf(HttpRequestError);
  });

  /** A JSON-RPC error answer as the HTTP transport reports it (viem then maps the code it knows). */
  const rpcError = (code: number, message: string) =>
    new RpcRequestError({ body: {}, error: { code, message }, url: 'https://rpc.example.org' });

  it.each([
    ['-32601 method not found', () => rpcError(-32601, 'the method trace_block does not exist/is not available')],
    ['-32004 method not supported', () => rpcError(-32004, 'method not supported')],
    ['HTTP 404', () => new HttpRequestError({ url: 'https://rpc.example.org', status: 404 })],
    ['HTTP 405', () => new HttpRequestError({ url: 'https://rpc.example.org', status: 405 })],
    ['HTTP 501', () => new HttpRequestError({ url: 'https://rpc.example.org', status: 501 })],
  ])('%s is a refusal: neither method is asked again', async (_, error) => {
    const asked: string[] = [];
    const client = nodeAnswering((method) => {
      asked.push(method);
      throw error();
    });
    expect(await detectBlockTraceMethod(client, 1n)).toBeNull();
    expect(asked).toEqual(['trace_block', 'debug_traceBlockByNumber']);
  });

  it.each([
    ["geth's -32000 execution timeout", () => rpcError(-32000, 'execution timeout')],
    ["geth's -32000 header not found", () => rpcError(-32000, 'header not found')],
    ['an unmapped code', () => rpcError(-32099, 'busy')],
    ['-32603 internal error', () => rpcError(-32603, 'internal error')],
    ['HTTP 400', () => new HttpRequestError({ url: 'https://rpc.example.org', status: 400 })],
  ])('%s is not known yet: thrown, to be asked again later', async (_, error) => {
    // trace_block refused, the callTracer failing for now: the answer is not null.
    const client = nodeAnswering((method) => {
      if (method === 'trace_block') throw rpcError(-32601, 'the method trace_block does not exist/is not available');
      throw error();
    });
    await expect(detectBlockTraceMethod(client, 1n)).rejects.toThrow();
  });
});

describe('which blocks are traced', () => {
  /**
   * Block 5: plain ETH between accounts without code. Block 6: the same, and a call with data to WALLET (code).
   * Block 7: another call to WALLET.
   */
  const plain = { hash: `0x${'01'.repeat(32)}`, from: SENDER, to: PAYEE, value: toHex(9), input: '0x' };
  const call = { hash: TX, from: SENDER, to: WALLET, value: toHex(10), input: '0xd0e30db0' };
  const blocks: Record<string, object[]> = {
    '0x5': [plain],
    '0x6': [{ ...plain, hash: `0x${'02'.repeat(32)}` }, call],
    '0x7': [{ ...call, hash: REVERTED_TX }],
  };
  const node = (asked: string[], failing = new Set<string>()) =>
    nodeAnswering((method, params) => {
      asked.push(method === 'trace_block' ? `trace_block ${params[0]}` : method);
      const number = params[0] as string;
      switch (method) {
        case 'eth_getLogs':
          return [];
        case 'eth_getCode':
          return (params[0] as string).toLowerCase() === WALLET ? '0x6080' : '0x';
        case 'eth_getTransactionReceipt':
          return { status: '0x1', transactionHash: params[0], logs: [] };
        case 'trace_block':
          if (failing.has(number)) throw Object.assign(new Error('execution timeout'), { code: -32000 });
          return number === '0x6' || number === '0x7' ? parityBlock : [];
        case 'eth_getBlockByNumber':
          return {
            number,
            hash: `0x${number.slice(2).padStart(64, '0')}`,
            timestamp: '0x64',
            transactions: (blocks[number] ?? []).map((tx, i) => ({
              ...tx,
              blockNumber: number,
              transactionIndex: toHex(i),
            })),
          };
        default:
          throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
      }
    });

  /** PAYEE's transfers in blocks 5 to `toBlock`, traced with trace_block; `failing` blocks' traces fail. */
  const readBlocks = (p: { asked: string[]; toBlock: bigint; failing?: Set<string> }) => {
    const client = node(p.asked, p.failing);
    return walletTransferEvents({
      client,
      range: { chainId: 1, fromBlock: 5n, toBlock: p.toBlock, blockTime: async () => 100_000 },
      watched: [PAYEE],
      eth: true,
      traceBlock: (block, transactions) =>
        blockInternalValueMoves({ client, method: 'trace_block', block, transactions }),
    });
  };

  it('a block of plain transfers between accounts without code is not traced; one calling a contract is', async () => {
    const asked: string[] = [];
    const { events, traceFailures } = await readBlocks({ asked, toBlock: 6n });
    expect(traceFailures).toEqual([]);
    expect(asked.filter((m) => m.startsWith('trace_block'))).toEqual(['trace_block 0x6']);
    // PAYEE: the top-level ETH of both blocks, and in block 6 the one internal payment that was not undone.
    expect(events.map((e) => [e.data.internal, e.data.value, e.data.traceAddress])).toEqual([
      [false, '9', undefined],
      [false, '9', undefined],
      [true, '2', [1]],
    ]);
  });

  it("one block whose trace fails costs only that block's internal transfers: it is listed, the rest is read", async () => {
    const asked: string[] = [];
    const { events, traceFailures } = await readBlocks({ asked, toBlock: 7n, failing: new Set(['0x6']) });
    expect(asked.filter((m) => m.startsWith('trace_block'))).toEqual(['trace_block 0x6', 'trace_block 0x7']);
    expect(traceFailures.map((f) => f.block)).toEqual([6n]);
    // Block 6's top-level ETH is still there; its internal payment is not; block 7's is.
    expect(events.map((e) => [e.data.blockNumber, e.data.internal, e.data.value])).toEqual([
      [5, false, '9'],
      [6, false, '9'],
      [7, true, '2'],
    ]);
  });
});
