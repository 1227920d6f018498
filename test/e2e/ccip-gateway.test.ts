import {
  type Address,
  createPublicClient,
  createTestClient,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  namehash,
  parseAbi,
  recoverAddress,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { packetToBytes } from 'viem/ens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offchainAnswerHash } from '../../src/ccip/sign-answer.js';
import { loadPublishedContract } from '../../src/embedded/chain/published-contracts.js';
import { localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { localViemChain } from '../../src/sources/rpc/viem-chains.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const SIGNER_KEY = generatePrivateKey();
const SIGNER = privateKeyToAccount(SIGNER_KEY).address;
const TTL = 300;
const PAY_TO: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const CONTENT = 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';

const service = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes result, uint64 expires, bytes sig)',
]);
const profile = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
]);
const answerAbi = [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }] as const;

/** The callData an OffchainResolver puts in its OffchainLookup for `name`. */
const lookupFor = (name: string, inner: Hex): Hex =>
  encodeFunctionData({ abi: service, functionName: 'resolve', args: [toHex(packetToBytes(name)), inner] });
const addrLookup = (name: string) =>
  lookupFor(name, encodeFunctionData({ abi: profile, functionName: 'addr', args: [namehash(name)] }));

describe('CCIP-Read gateway and subnames, resolved by viem through ENS’s own OffchainResolver', () => {
  let server: TestServer;
  let client: ReturnType<typeof createPublicClient>;
  let resolver: Address;
  let owner: { token: string; address: string };

  const getJson = async (path: string, headers?: Record<string, string>) => {
    const res = await server.get(path, headers);
    return { status: res.status, body: await res.json() };
  };
  const postJson = async (path: string, body: unknown, headers?: Record<string, string>) => {
    const res = await server.post(path, body, headers);
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    server = await startTestServer({
      CCIP_SIGNER_KEY: SIGNER_KEY,
      CCIP_ANSWER_TTL_SECONDS: String(TTL),
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      SIWE_DAILY_LIMIT: '100000',
      SIWE_PER_MINUTE_LIMIT: '100000',
    });
    const rpcUrl = server.localChain!.rpcUrl;
    client = createPublicClient({
      chain: localViemChain({ rpcUrl, contracts: { ensUniversalResolver: localEnsAddresses().universalResolver } }),
      transport: http(rpcUrl, { retryCount: 0 }),
    });
    resolver = await client.getEnsResolver({ name: 'offchain.eth' });
    owner = await signIn(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET /ccip/health answers status, recordCount, dbPath (the store kind, never a file path), timestamp, the signer and the served parents, free of charge', async () => {
    const asked = Date.now();
    const res = await server.get('/ccip/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBeNull();
    const health = await res.json();
    expect(health).toMatchObject({
      status: 'ok',
      dbPath: 'sqlite',
      signer: SIGNER,
      parents: ['offchain.eth'],
      answerTtlSeconds: TTL,
    });
    expect(JSON.stringify(health)).not.toContain(server.dataDir);
    expect(health.recordCount).toEqual(expect.any(Number));
    expect(Date.parse(health.timestamp)).toBeGreaterThanOrEqual(asked);
    expect(Date.parse(health.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it('offchain.eth is served by ENS’s OffchainResolver pointing at this server’s GET route, trusting the published signer', async () => {
    const offchain = loadPublishedContract('OffchainResolver');
    const url = await client.readContract({ address: resolver, abi: offchain.abi, functionName: 'url' });
    expect(url).toBe(`${server.url}/ccip/{sender}/{data}.json`);
    expect(
      await client.readContract({ address: resolver, abi: offchain.abi, functionName: 'signers', args: [SIGNER] }),
    ).toBe(true);
  });

  it('a signed-in wallet registers a subname with addr, text and contenthash records and becomes its owner (Write tier)', async () => {
    const res = await server.post(
      '/api/subnames/offchain.eth',
      {
        label: 'frank',
        records: {
          addresses: { '60': PAY_TO, '2147492101': owner.address },
          texts: { url: 'https://frank.example.org', 'com.github': 'frank' },
          contenthash: CONTENT,
        },
      },
      bearer(owner.token),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('write');
    expect(await res.json()).toMatchObject({
      name: 'frank.offchain.eth',
      parent: 'offchain.eth',
      label: 'frank',
      node: namehash('frank.offchain.eth'),
      owner: owner.address,
      records: {
        addresses: { '60': PAY_TO, '2147492101': owner.address },
        texts: { url: 'https://frank.example.org', 'com.github': 'frank' },
        contenthash: CONTENT,
      },
    });
  });

  it('GET /api/subnames/{parent_name}/{label} shows the owner and records (Medium tier); a free label is 404', async () => {
    const res = await server.get('/api/subnames/offchain.eth/frank');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('medium');
    expect(await res.json()).toMatchObject({
      owner: owner.address,
      records: { addresses: { '60': PAY_TO }, contenthash: CONTENT },
    });
    expect((await getJson('/api/subnames/offchain.eth/nobody')).status).toBe(404);
  });

  it('a label already taken is 409 CONFLICT, and the first owner keeps it', async () => {
    const other = await signIn(server);
    const again = await postJson('/api/subnames/offchain.eth', { label: 'frank' }, bearer(other.token));
    expect(again).toMatchObject({
      status: 409,
      body: { error: true, code: 'CONFLICT', message: 'frank.offchain.eth is already registered' },
    });
    expect((await getJson('/api/subnames/offchain.eth/frank')).body.owner).toBe(owner.address);
  });

  it('registering needs a SIWE session (401), a served parent (404) and a normalised label (400)', async () => {
    expect(await postJson('/api/subnames/offchain.eth', { label: 'anon' })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await postJson('/api/subnames/alice.eth', { label: 'x' }, bearer(owner.token))).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await postJson('/api/subnames/offchain.eth', { label: 'Dave' }, bearer(owner.token))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETER' },
    });
    const bad = await postJson(
      '/api/subnames/offchain.eth',
      { label: 'eve', records: { addresses: { '0': PAY_TO } } },
      bearer(owner.token),
    );
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETER' } });
  });

  it('POST /api/ccip/register takes the full name; without addresses the name resolves to its owner', async () => {
    const res = await postJson(
      '/api/ccip/register',
      { name: 'erin.offchain.eth', records: { texts: { description: 'Erin' } } },
      bearer(owner.token),
    );
    expect(res).toMatchObject({
      status: 200,
      body: { name: 'erin.offchain.eth', owner: owner.address, records: { addresses: { '60': owner.address } } },
    });
  });

  it('viem getEnsAddress and getEnsText resolve a registered subname through CCIP-Read against the running server', async () => {
    expect(await client.getEnsAddress({ name: 'frank.offchain.eth' })).toBe(PAY_TO);
    expect(await client.getEnsAddress({ name: 'frank.offchain.eth', coinType: 2147492101n })).toBe(
      owner.address.toLowerCase(),
    );
    expect(await client.getEnsText({ name: 'frank.offchain.eth', key: 'url' })).toBe('https://frank.example.org');
    expect(await client.getEnsText({ name: 'erin.offchain.eth', key: 'description' })).toBe('Erin');
    expect(await client.getEnsAddress({ name: 'erin.offchain.eth' })).toBe(owner.address);
    // Names nobody registered answer as unset records: no address, no text.
    expect(await client.getEnsAddress({ name: 'nobody.offchain.eth' })).toBeNull();
    expect(await client.getEnsText({ name: 'frank.offchain.eth', key: 'email' })).toBeNull();
  });

  it('the same names resolve through /api/ens/resolve/{name}; an unregistered one is 404', async () => {
    expect(await getJson('/api/ens/resolve/frank.offchain.eth')).toEqual({
      status: 200,
      body: { name: 'frank.offchain.eth', address: PAY_TO },
    });
    expect(await getJson('/api/ens/resolve/erin.offchain.eth')).toEqual({
      status: 200,
      body: { name: 'erin.offchain.eth', address: owner.address },
    });
    expect((await getJson('/api/ens/resolve/nobody.offchain.eth')).status).toBe(404);
  });

  it('GET /ccip/{sender}/{data}.json answers {data, signature, validUntil}: data carries the result, expiry and the 65-byte signature of the signer', async () => {
    const request = addrLookup('frank.offchain.eth');
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await getJson(`/ccip/${resolver.toLowerCase()}/${request}.json`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'signature', 'validUntil']);
    const [result, expires, sig] = decodeAbiParameters(answerAbi, body.data);
    expect(decodeAbiParameters([{ type: 'address' }], result)[0]).toBe(PAY_TO);
    expect(Number(expires)).toBe(body.validUntil);
    expect(body.validUntil).toBeGreaterThanOrEqual(before + TTL);
    expect(body.validUntil).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + TTL);
    expect(sig).toBe(body.signature);
    expect((sig.length - 2) / 2).toBe(65);
    const hash = offchainAnswerHash({ resolver, expires, request, result });
    expect(await recoverAddress({ hash, signature: sig })).toBe(SIGNER);
  });

  it('POST /ccip {sender, data} gives the same signed record; contenthash is answered as ENSIP-7 bytes', async () => {
    const request = lookupFor(
      'frank.offchain.eth',
      encodeFunctionData({ abi: profile, functionName: 'contenthash', args: [namehash('frank.offchain.eth')] }),
    );
    const { status, body } = await postJson('/ccip', { sender: resolver, data: request });
    expect(status).toBe(200);
    const response = body.data as Hex;
    const offchain = loadPublishedContract('OffchainResolver');
    // The resolver's own callback accepts the answer and returns the record.
    const record = await client.readContract({
      address: resolver,
      abi: offchain.abi,
      functionName: 'resolveWithProof',
      args: [response, request],
    });
    expect(decodeAbiParameters([{ type: 'bytes' }], record as Hex)[0]).toMatch(/^0xe301017012/);
  });

  it('a tampered answer is refused by the contract: a changed result no longer matches the signature', async () => {
    const request = addrLookup('frank.offchain.eth');
    const { body } = await getJson(`/ccip/${resolver}/${request}.json`);
    const [, expires, sig] = decodeAbiParameters(answerAbi, body.data);
    const forged = encodeAbiParameters(answerAbi, [
      encodeAbiParameters([{ type: 'address' }], [owner.address as Address]),
      expires,
      sig,
    ]);
    const offchain = loadPublishedContract('OffchainResolver');
    await expect(
      client.readContract({
        address: resolver,
        abi: offchain.abi,
        functionName: 'resolveWithProof',
        args: [forged, request],
      }),
    ).rejects.toThrow(/SignatureVerifier: Invalid sigature/);
    // So is an answer signed for another resolver (the sender is part of the signed hash).
    const other = await getJson(`/ccip/0x000000000000000000000000000000000000dEaD/${request}.json`);
    await expect(
      client.readContract({
        address: resolver,
        abi: offchain.abi,
        functionName: 'resolveWithProof',
        args: [other.body.data, request],
      }),
    ).rejects.toThrow(/SignatureVerifier: Invalid sigature/);
  });

  it('an expired answer is refused by the contract once the chain’s clock passes validUntil', async () => {
    const request = addrLookup('frank.offchain.eth');
    const { body } = await getJson(`/ccip/${resolver}/${request}.json`);
    const offchain = loadPublishedContract('OffchainResolver');
    const proof = () =>
      client.readContract({
        address: resolver,
        abi: offchain.abi,
        functionName: 'resolveWithProof',
        args: [body.data, request],
      });
    expect(decodeAbiParameters([{ type: 'address' }], (await proof()) as Hex)[0]).toBe(PAY_TO);
    const anvil = createTestClient({
      chain: client.chain,
      transport: http(server.localChain!.rpcUrl, { retryCount: 0 }),
      mode: 'anvil',
    });
    const snapshot = await anvil.snapshot();
    try {
      await anvil.increaseTime({ seconds: TTL + 60 });
      await anvil.mine({ blocks: 1 });
      await expect(proof()).rejects.toThrow(/SignatureVerifier: Signature expired/);
    } finally {
      await anvil.revert({ id: snapshot });
    }
  });

  it('refuses requests it must not sign: a node that is not namehash(name) (400 CCIP_ERROR), a name outside the served parents (404)', async () => {
    const mismatched = lookupFor(
      'frank.offchain.eth',
      encodeFunctionData({ abi: profile, functionName: 'addr', args: [namehash('alice.eth')] }),
    );
    expect(await getJson(`/ccip/${resolver}/${mismatched}.json`)).toMatchObject({
      status: 400,
      body: {
        error: expect.stringContaining('is not namehash(frank.offchain.eth)'),
        code: 'CCIP_ERROR',
        message: expect.any(String),
      },
    });
    expect(await getJson(`/ccip/${resolver}/${addrLookup('alice.eth')}.json`)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });

  it('malformed requests are 400 in the CCIP envelope: CCIP_ERROR for bad sender or data, INVALID_REQUEST when either is missing', async () => {
    expect(await getJson(`/ccip/not-an-address/${addrLookup('frank.offchain.eth')}.json`)).toMatchObject({
      status: 400,
      body: { code: 'CCIP_ERROR' },
    });
    expect(await getJson(`/ccip/${resolver}/0xzz.json`)).toMatchObject({ status: 400, body: { code: 'CCIP_ERROR' } });
    expect(await getJson(`/ccip/${resolver}/0xdeadbeef.json`)).toMatchObject({
      status: 400,
      body: { code: 'CCIP_ERROR', message: expect.stringContaining('resolve(bytes name, bytes data)') },
    });
    expect(await postJson('/ccip', { sender: resolver })).toMatchObject({
      status: 400,
      body: { error: 'CCIP request lacks sender or data', code: 'INVALID_REQUEST' },
    });
    expect(await postJson('/ccip', {})).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  it('the OpenAPI document gives a working example body for POST /api/subnames/{parent_name}', async () => {
    const { parse } = await import('yaml');
    const doc = parse(await (await server.get('/api/openapi.yaml')).text());
    const op = doc.paths['/api/subnames/{parent_name}'].post;
    expect(op['x-tier']).toBe('write');
    const example = op.requestBody.content['application/json'].example;
    const parent = op.parameters.find((p: { name: string }) => p.name === 'parent_name').example;
    const res = await postJson(`/api/subnames/${parent}`, example, bearer(owner.token));
    expect(res.status).toBe(200);
    expect(await client.getEnsText({ name: res.body.name, key: 'url' })).toBe(example.records.texts.url);
  });
});

describe('instances sharing one store (Redis) serve the same subnames with the same signer', () => {
  const REDIS_URL = TEST_REDIS_URL;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const storePrefix = testKeyPrefix('ccip');
    // No CCIP_SIGNER_KEY: the first instance generates the key into the store, the second reads it.
    [a, b] = await Promise.all([
      startTestServer({ REDIS_URL }, { storePrefix }),
      startTestServer({ REDIS_URL }, { storePrefix }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a subname registered on one instance is read, and signed for, by the other', async () => {
    const [healthA, healthB] = await Promise.all([
      a.get('/ccip/health').then((r) => r.json()),
      b.get('/ccip/health').then((r) => r.json()),
    ]);
    expect(healthA.signer).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(healthB.signer).toBe(healthA.signer);
    expect(healthA.dbPath).toBe('redis');

    const session = await signIn(a);
    expect((await a.post('/api/subnames/offchain.eth', { label: 'shared' }, bearer(session.token))).status).toBe(200);
    expect(await (await b.get('/api/subnames/offchain.eth/shared')).json()).toMatchObject({ owner: session.address });
    // The demo subname dave.offchain.eth, registered once by whichever instance started first, and this one.
    expect((await (await b.get('/ccip/health')).json()).recordCount).toBe(2);
    // Instance B's own chain resolves the name through B's gateway, with the shared signer.
    expect(await (await b.get('/api/ens/resolve/shared.offchain.eth')).json()).toEqual({
      name: 'shared.offchain.eth',
      address: session.address,
    });
  });
});
