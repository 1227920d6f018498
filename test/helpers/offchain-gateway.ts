import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  encodePacked,
  type Hex,
  keccak256,
  parseAbi,
} from 'viem';
import { sign } from 'viem/accounts';

const resolverServiceAbi = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes result, uint64 expires, bytes sig)',
]);
const recordsAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function text(bytes32 node, string key) view returns (string)',
]);

/** A CCIP-Read gateway for tests: answers ENS `addr` and `text` lookups signed for @ensdomains' OffchainResolver. */
export interface TestOffchainGateway {
  /** URL template for the OffchainResolver constructor (POST, so it has no {data}). */
  url: string;
  /** Requests received, one per gateway round per lookup. */
  requests: number;
  /** When set, every request is answered with this HTTP status and no data. */
  failWith: number | undefined;
  close(): Promise<void>;
}

/**
 * Serves signed answers for any name: `addr` is `address`, `text(key)` is `texts[key]` (empty when absent).
 * The signature is the OffchainResolver's: keccak256(0x1900 ‖ sender ‖ expires ‖ keccak256(request) ‖ keccak256(result)).
 */
export async function startTestOffchainGateway(p: {
  signerKey: Hex;
  address: Address;
  texts: Record<string, string>;
}): Promise<TestOffchainGateway> {
  const state = { requests: 0, failWith: undefined as number | undefined };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', async () => {
      state.requests += 1;
      if (state.failWith !== undefined) {
        res
          .writeHead(state.failWith, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'gateway down' }));
        return;
      }
      const { sender, data } = JSON.parse(body) as { sender: Address; data: Hex };
      const { args } = decodeFunctionData({ abi: resolverServiceAbi, data });
      const inner = decodeFunctionData({ abi: recordsAbi, data: args[1] });
      const result =
        inner.functionName === 'addr'
          ? encodeFunctionResult({ abi: recordsAbi, functionName: 'addr', result: p.address })
          : encodeFunctionResult({ abi: recordsAbi, functionName: 'text', result: p.texts[inner.args[1]] ?? '' });
      const expires = BigInt(Math.floor(Date.now() / 1000) + 300);
      const hash = keccak256(
        encodePacked(
          ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
          ['0x1900', sender, expires, keccak256(data), keccak256(result)],
        ),
      );
      const sig = await sign({ hash, privateKey: p.signerKey, to: 'hex' });
      const answer = encodeAbiParameters(
        [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
        [result, expires, sig],
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: answer }));
    });
  });
  // The resolving client closes idle connections: a server-side close races its reuse of one (ECONNRESET).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/lookup`,
    get requests() {
      return state.requests;
    },
    set requests(v: number) {
      state.requests = v;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(v: number | undefined) {
      state.failWith = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
