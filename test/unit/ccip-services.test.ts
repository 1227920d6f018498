import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAbiParameters, encodeFunctionData, type Hex, namehash, parseAbi, toHex, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { packetToBytes } from 'viem/ens';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ccipRequestError } from '../../src/ccip/ccip-request-error.js';
import { createCcipServices } from '../../src/ccip/ccip-services.js';
import { BASE_REVERSE_PARENT, basePrimaryNameParent, ensReaderParent } from '../../src/ccip/chain-served-parent.js';
import { resolverServiceAbi } from '../../src/ccip/resolve-request.js';
import { invalidParameter, serviceUnavailable } from '../../src/errors/api-error.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';

const NOW = Date.UTC(2030, 0, 1);
const RESOLVER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const wallet = privateKeyToAccount(generatePrivateKey()).address;
const session: CallerIdentity = {
  mode: 'siwe',
  key: `wallet:${wallet}`,
  wallet,
  limits: { daily: 200, perMinute: 60 },
};
const textAbi = parseAbi(['function text(bytes32 node, string key) view returns (string)']);
const addrAbi = parseAbi(['function addr(bytes32 node) view returns (address)']);
const coinAddrAbi = parseAbi(['function addr(bytes32 node, uint256 coinType) view returns (bytes)']);
const nameAbi = parseAbi(['function name(bytes32 node) view returns (string)']);
const config = (signerKey?: Hex) => ({
  ccip: { signerKey, parentNames: ['offchain.eth', 'team.example.eth'], answerTtlSeconds: 120 },
});

describe('the CCIP services over the store', () => {
  let dataDir: string;
  let store: Store;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ccip-'));
    store = await openStore({ dataDir, redisUrl: undefined });
  });
  afterEach(async () => {
    await store.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('without CCIP_SIGNER_KEY the key is generated once and kept in the store: every instance on it signs alike', async () => {
    const [first, second] = await Promise.all([
      createCcipServices({ config: config(), store }),
      createCcipServices({ config: config(), store }),
    ]);
    expect(second.signer).toBe(first.signer);
    const key = generatePrivateKey();
    expect((await createCcipServices({ config: config(key), store })).signer).toBe(privateKeyToAccount(key).address);
  });

  it('an answer is valid for CCIP_ANSWER_TTL_SECONDS from now and serves every configured parent', async () => {
    const ccip = await createCcipServices({ config: config(), store, now: () => NOW });
    await ccip.register(async () => session, {
      parent: 'team.example.eth',
      label: 'ops',
      records: { texts: [{ key: 'email', value: 'ops@example.org' }] },
    });
    const name = 'ops.team.example.eth';
    const data = encodeFunctionData({
      abi: resolverServiceAbi,
      functionName: 'resolve',
      args: [
        toHex(packetToBytes(name)),
        encodeFunctionData({ abi: textAbi, functionName: 'text', args: [namehash(name), 'email'] }),
      ],
    });
    const answer = await ccip.answer({ sender: RESOLVER, data });
    expect(answer.validUntil).toBe(NOW / 1000 + 120);
    const [result] = decodeAbiParameters(
      [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
      answer.data as Hex,
    );
    expect(decodeAbiParameters([{ type: 'string' }], result)[0]).toBe('ops@example.org');
  });

  it('a chain-served parent (base.eth on the embedded default) answers its names from the ENS reader, not the store', async () => {
    const reader = {
      addresses: async (names: readonly string[]) => names.map((n) => (n === 'demo.base.eth' ? wallet : null)),
      texts: async (names: readonly string[], key: string) =>
        names.map((n) => (n === 'demo.base.eth' && key === 'description' ? 'on Base' : null)),
      profiles: async (names: readonly string[], extras?: { coinTypes: readonly number[] }) =>
        names.map((n) =>
          n === 'demo.base.eth'
            ? ({
                coinAddresses: Object.fromEntries((extras?.coinTypes ?? []).map((c) => [String(c), wallet])),
              } as never)
            : null,
        ),
      primaryNames: async () => [null],
      basePrimaryNames: async (addresses: readonly string[]) =>
        addresses.map((a) => (a === wallet ? 'demo.base.eth' : null)),
      nftAvatars: async () => [],
    };
    const ccip = await createCcipServices({
      config: config(),
      store,
      now: () => NOW,
      chainParents: [ensReaderParent('base.eth', reader), basePrimaryNameParent(reader)],
    });
    const ask = async (name: string, inner: Hex) => {
      const data = encodeFunctionData({
        abi: resolverServiceAbi,
        functionName: 'resolve',
        args: [toHex(packetToBytes(name)), inner],
      });
      const [result] = decodeAbiParameters(
        [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
        (await ccip.answer({ sender: RESOLVER, data })).data as Hex,
      );
      return result;
    };
    const addr = (name: string) => encodeFunctionData({ abi: addrAbi, functionName: 'addr', args: [namehash(name)] });
    const text = (name: string, key: string) =>
      encodeFunctionData({ abi: textAbi, functionName: 'text', args: [namehash(name), key] });
    expect(decodeAbiParameters([{ type: 'address' }], await ask('demo.base.eth', addr('demo.base.eth')))[0]).toBe(
      wallet,
    );
    expect(
      decodeAbiParameters([{ type: 'string' }], await ask('demo.base.eth', text('demo.base.eth', 'description')))[0],
    ).toBe('on Base');
    // ENSIP-19 on L1: Base's coin type of a base.eth name, and the Base primary name under 80002105.reverse.
    const baseAddr = encodeFunctionData({
      abi: coinAddrAbi,
      functionName: 'addr',
      args: [namehash('demo.base.eth'), 0x8000_2105n],
    });
    expect(decodeAbiParameters([{ type: 'bytes' }], await ask('demo.base.eth', baseAddr))[0]).toBe(
      wallet.toLowerCase(),
    );
    const reverseName = `${wallet.toLowerCase().slice(2)}.${BASE_REVERSE_PARENT}`;
    const name = (node: string) =>
      encodeFunctionData({ abi: nameAbi, functionName: 'name', args: [namehash(node) as Hex] });
    expect(decodeAbiParameters([{ type: 'string' }], await ask(reverseName, name(reverseName)))[0]).toBe(
      'demo.base.eth',
    );
    const stranger = `${'12'.repeat(20)}.${BASE_REVERSE_PARENT}`;
    expect(decodeAbiParameters([{ type: 'string' }], await ask(stranger, name(stranger)))[0]).toBe('');
    // A free label answers unset, as a resolver does: ENS clients find no address.
    expect(decodeAbiParameters([{ type: 'address' }], await ask('nobody.base.eth', addr('nobody.base.eth')))[0]).toBe(
      zeroAddress,
    );
    // Outside every served parent it is still 404.
    await expect(
      ccip.answer({
        sender: RESOLVER,
        data: encodeFunctionData({
          abi: resolverServiceAbi,
          functionName: 'resolve',
          args: [toHex(packetToBytes('x.other.eth')), addr('x.other.eth')],
        }),
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('records are checked: coin types ENS encodes, each with an address of its coin, content hash URIs, no key twice', async () => {
    const ccip = await createCcipServices({ config: config(), store, now: () => NOW });
    const register = (records: object) =>
      ccip.register(async () => session, { parent: 'offchain.eth', label: 'check', records });
    await expect(register({ addresses: [{ coinType: '0', address: wallet }] })).rejects.toMatchObject({
      status: 400,
      message: /^parameter records\.addresses\.0: is not a btc address/,
    });
    await expect(register({ addresses: [{ coinType: '1', address: wallet }] })).rejects.toMatchObject({
      status: 400,
      message: /^parameter records\.addresses\.1: is not a served coin type/,
    });
    await expect(register({ addresses: [{ coinType: '60', address: 'bc1q…' }] })).rejects.toMatchObject({
      status: 400,
    });
    await expect(register({ contenthash: 'https://example.org' })).rejects.toMatchObject({
      status: 400,
      message: /contenthash/,
    });
    await expect(
      register({
        texts: [
          { key: 'a', value: '1' },
          { key: 'a', value: '2' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: 'parameter records.texts.a: is given twice' });
    // 060 is coin type 60: once in a REST map as well as in a GraphQL list.
    await expect(
      register({
        addresses: [
          { coinType: '60', address: wallet },
          { coinType: '060', address: wallet },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, message: 'parameter records.addresses.060: is given twice' });
    // `__proto__` cannot be a key of the JSON map a REST body sends: GraphQL refuses it as well.
    await expect(register({ texts: [{ key: '__proto__', value: 'kept' }] })).rejects.toMatchObject({
      status: 400,
      message: 'parameter records.texts.__proto__: is not a key a record can have',
    });
    // Other keys of Object.prototype are text keys like any other, kept as the record's own entries.
    const made = await register({ texts: [{ key: 'constructor', value: 'kept' }] });
    expect(made.records.texts).toEqual([{ key: 'constructor', value: 'kept' }]);
  });

  it('parent and label are parsed here, as a GraphQL caller sent them, before the caller is asked who it is', async () => {
    const ccip = await createCcipServices({ config: config(), store, now: () => NOW });
    let asked = 0;
    const identify = async () => {
      asked += 1;
      return session;
    };
    await expect(ccip.register(identify, { parent: 'offchain.eth', label: 'Dave', records: {} })).rejects.toMatchObject(
      {
        status: 400,
        message: 'parameter label: must be in normalised form: "dave"',
      },
    );
    await expect(ccip.register(identify, { parent: 'eth', label: 'dave', records: {} })).rejects.toMatchObject({
      status: 400,
      message: 'parameter parent: ENS name must have at least two labels, e.g. alice.eth',
    });
    expect(asked).toBe(0);
    const made = await ccip.register(identify, { parent: 'OffChain.ETH', label: 'dave', records: {} });
    expect([made.name, asked]).toEqual(['dave.offchain.eth', 1]);
    await expect(ccip.subname({ parent: 'OFFCHAIN.eth', label: 'dave' })).resolves.toMatchObject({
      owner: expect.any(String),
    });
    await expect(ccip.subname({ parent: 'x', label: 'dave' })).rejects.toMatchObject({
      status: 400,
      message: 'parameter parent: ENS name must have at least two labels, e.g. alice.eth',
    });
  });

  it('an API key or anonymous caller cannot register: a SIWE session names the owner', async () => {
    const ccip = await createCcipServices({ config: config(), store });
    const apiKey: CallerIdentity = { ...session, mode: 'api_key', apiKeyId: 'k' };
    await expect(
      ccip.register(async () => apiKey, { parent: 'offchain.eth', label: 'k', records: {} }),
    ).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('health is 503 SERVICE_UNAVAILABLE when the record store does not answer, as every route answers a store outage', async () => {
    const down = new Proxy(store, {
      get: (target, name) =>
        name === 'ping'
          ? async () => {
              throw serviceUnavailable('the redis store is unavailable; try again shortly');
            }
          : Reflect.get(target, name),
    });
    const ccip = await createCcipServices({ config: config(), store: down });
    await expect(ccip.health()).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it('health is 500 CCIP_HEALTH_ERROR when the record store fails otherwise (closed under it)', async () => {
    const ccip = await createCcipServices({ config: config(), store });
    await expect(ccip.health()).resolves.toMatchObject({
      status: 'ok',
      recordCount: 0,
      dbPath: 'sqlite',
    });
    await store.close();
    await expect(ccip.health()).rejects.toMatchObject({ status: 500, code: 'CCIP_HEALTH_ERROR' });
  });

  it('a malformed sender or data is 400 CCIP_ERROR named by its parameter, as the REST routes answer it', async () => {
    const ccip = await createCcipServices({ config: config(), store });
    const data = encodeFunctionData({
      abi: resolverServiceAbi,
      functionName: 'resolve',
      args: [toHex(packetToBytes('a.offchain.eth')), '0x'],
    });
    await expect(ccip.answer({ sender: '0x1234', data })).rejects.toMatchObject({
      status: 400,
      code: 'CCIP_ERROR',
      message: expect.stringMatching(/^parameter sender: /),
    });
    await expect(ccip.answer({ sender: RESOLVER, data: '0xabc' })).rejects.toMatchObject({
      status: 400,
      code: 'CCIP_ERROR',
      message: expect.stringMatching(/^parameter data: /),
    });
  });
});

describe('a refused CCIP argument is CCIP_ERROR', () => {
  it('INVALID_PARAMETER becomes 400 CCIP_ERROR with its message; any other error stays itself', () => {
    const refused = ccipRequestError(invalidParameter('parameter data: must be 0x hex'));
    expect(refused).toMatchObject({ status: 400, code: 'CCIP_ERROR', message: 'parameter data: must be 0x hex' });
    const down = serviceUnavailable('store down');
    expect(ccipRequestError(down)).toBe(down);
    const plain = new Error('boom');
    expect(ccipRequestError(plain)).toBe(plain);
  });
});
