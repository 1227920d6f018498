import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeFunctionData, encodeFunctionResult, erc20Abi, type Hex, multicall3Abi, pad } from 'viem';
import type { ChainEndpoint } from '../config/chain-settings.js';
import { CHAINS, type ChainKey } from '../config/chains.js';
import { HttpJsonSource } from '../sources/http-json-source.js';
import { createChainClients, requireClient } from '../sources/rpc/chain-clients.js';
import { MULTICALL3_ADDRESS } from '../sources/rpc/viem-chains.js';
import { SourceClient } from '../sources/source-client.js';
import { SourceHealthRegistry } from '../sources/source-health.js';

/** Deadline of each warm-up call to the loopback server (it answers in well under a millisecond once warm). */
const WARM_CALL_TIMEOUT_MS = 2_000;

/** A 32-byte zero word: a valid answer for every uint, address, bool and bytes32 output. */
const ZERO_WORD = pad('0x00');

/** What the warm-up's own loopback server answered: one entry per request, e.g. `eth_call`, `GET /warm/get`. */
export interface WarmedCalls {
  served: string[];
}

/** The reply to one JSON-RPC request: a Multicall3 batch gets one successful zero word per call. */
function jsonRpcResult(method: string, params: unknown): unknown {
  if (method !== 'eth_call') return '0x1';
  const call = (Array.isArray(params) ? params[0] : undefined) as { to?: string; data?: Hex } | undefined;
  if (call?.to?.toLowerCase() !== MULTICALL3_ADDRESS.toLowerCase() || call.data === undefined) return ZERO_WORD;
  const { args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
  const calls = (args?.[0] ?? []) as readonly unknown[];
  return encodeFunctionResult({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    result: calls.map(() => ({ success: true, returnData: ZERO_WORD })),
  });
}

/** Answers JSON-RPC posts as a chain would, any other request with `{}`; records what it answered. */
function answer(served: string[], req: IncomingMessage, res: ServerResponse, body: string): void {
  let reply: unknown = {};
  let what = `${req.method} ${req.url?.split('?')[0]}`;
  try {
    const rpc = JSON.parse(body || '{}') as { jsonrpc?: string; id?: number; method?: string; params?: unknown };
    if (rpc.jsonrpc === '2.0' && typeof rpc.method === 'string') {
      what = rpc.method;
      reply = { jsonrpc: '2.0', id: rpc.id, result: jsonRpcResult(rpc.method, rpc.params) };
    }
  } catch {
    // Not JSON: `{}` as for a GET.
  }
  served.push(what);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
}

/** A throwaway server on an ephemeral loopback port, the only thing the warm-up talks to. */
async function loopbackServer(served: string[]) {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => answer(served, req, res, body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Every chain without a live URL: the clients are built as for the embedded chain, which is then the loopback server. */
function chainsWithoutUrls(): Record<ChainKey, ChainEndpoint> {
  return Object.fromEntries(
    CHAINS.map((c) => [c.key, { key: c.key, id: c.id, name: c.name, rpcUrl: undefined }]),
  ) as Record<ChainKey, ChainEndpoint>;
}

/**
 * Runs the upstream clients' first-time code once, so that the first request is not the one that compiles it:
 * a viem chain client built as the sources build theirs (our JSON-RPC transport over node:http, Multicall3 batching,
 * ABI encoding and decoding) and an HTTP JSON source (a source client over fetch/undici, GET and POST). Both talk only to
 * a throwaway server of the warm-up's own on a loopback port: no upstream is called, no upstream connection opened, on
 * any configuration. Stops between steps once `signal` aborts; the loopback server is closed before it returns.
 * @example const { served } = await warmUpstreamClients(AbortSignal.timeout(10_000))
 */
export async function warmUpstreamClients(signal: AbortSignal): Promise<WarmedCalls> {
  const served: string[] = [];
  if (signal.aborted) return { served };
  const loopback = await loopbackServer(served);
  try {
    const ethereum = requireClient(
      createChainClients({ chains: chainsWithoutUrls(), localRpcUrl: loopback.url, timeoutMs: WARM_CALL_TIMEOUT_MS }),
      'ethereum',
    );
    // Three reads in one tick: batched into one Multicall3 eth_call, as a resolver's concurrent reads are (viem reads
    // balances through Multicall3 too); and the head block, which the ENS reads ask first.
    const token = MULTICALL3_ADDRESS;
    await Promise.all([
      ethereum.getBlockNumber({ cacheTime: 0 }),
      ethereum.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [token] }),
      ethereum.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
      ethereum.getBalance({ address: token }),
    ]);
    if (signal.aborted) return { served };
    const http = new HttpJsonSource({
      baseUrl: loopback.url,
      client: new SourceClient({
        policy: {
          name: 'warm-up',
          kind: 'warm-up',
          mode: 'local',
          freshnessMs: 0,
          timeoutMs: WARM_CALL_TIMEOUT_MS,
          retries: 0,
        },
        registry: new SourceHealthRegistry(),
      }),
    });
    await http.getJson('/warm/get', { query: { q: 'warm' } });
    if (signal.aborted) return { served };
    await http.postJson('/warm/post', { query: '{ warm }' });
    return { served };
  } finally {
    await loopback.close();
  }
}
