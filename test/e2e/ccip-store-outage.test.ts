import { encodeFunctionData, type Hex, namehash, parseAbi, toHex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { packetToBytes } from 'viem/ens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, startOwnRedis } from '../helpers/own-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RESOLVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const abi = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes result, uint64 expires, bytes sig)',
  'function addr(bytes32 node) view returns (address)',
]);

/** The callData an OffchainResolver sends for addr(name): answering it reads the name's records from the store. */
const addrLookup = (name: string): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'resolve',
    args: [toHex(packetToBytes(name)), encodeFunctionData({ abi, functionName: 'addr', args: [namehash(name)] })],
  });

/** docs/api-contract.md#errors: the CCIP gateway's 500, in the CCIP envelope its routes document. */
const ccipFailure = (code: 'CCIP_ERROR') => ({
  error: expect.any(String),
  code,
  message: expect.stringMatching(/record store/),
});

describe('a CCIP gateway whose record store is down: health is 503, a lookup its own 500, never INTERNAL_ERROR', () => {
  let redis: OwnRedis;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startOwnRedis();
    server = await startTestServer({ REDIS_URL: redis.url, CCIP_SIGNER_KEY: generatePrivateKey() });
    await redis.kill();
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it('GET /ccip/health is 503 SERVICE_UNAVAILABLE in the CCIP envelope, as every route answers a store outage', async () => {
    const res = await server.get('/ccip/health');
    expect([res.status, await res.json()]).toEqual([
      503,
      { error: expect.any(String), code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/record store/) },
    ]);
  });

  it('a lookup of a subname (GET and POST) is 500 CCIP_ERROR: its records could not be read', async () => {
    const data = addrLookup('dave.offchain.eth');
    const viaGet = await server.get(`/ccip/${RESOLVER}/${data}.json`);
    expect([viaGet.status, await viaGet.json()]).toEqual([500, ccipFailure('CCIP_ERROR')]);
    const viaPost = await server.post('/ccip', { sender: RESOLVER, data });
    expect([viaPost.status, await viaPost.json()]).toEqual([500, ccipFailure('CCIP_ERROR')]);
  });
});
