import { createPublicClient, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { loadConfig, PUBLIC_X402_FACILITATOR, USDC_ON_BASE } from '../../src/config/config.js';
import { liveRefusals } from '../../src/config/live-guard.js';
import { DEMO_X402_RECEIVER, publicDevKeys } from '../../src/config/public-dev-keys.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { EMBEDDED_CHAIN_PLANS } from '../../src/embedded/chain/embedded-chain-plans.js';
import { type SeededChain, startSeededChain } from '../../src/embedded/chain/start-seeded-chain.js';
import { type LocalFacilitator, startLocalFacilitator } from '../../src/embedded/local-facilitator.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL } from '../helpers/x402-payer.js';

/**
 * docs/operators.md#what-each-mix-does: the server started over mixes of live and demo parts. "Live" parts are real
 * services outside the server under test: a second anvil Ethereum (seeded like the embedded one), and a facilitator
 * of its own (the x402 packages' facilitator over HTTP, settling on its own Base chain, whose RPC is the live Base).
 */
const CHECKSUM = '/api/address/checksum/0xd8da6bf26964af9d7eed9e10c5a1e8d5d5b5f6a8';
const PUBLIC_ADDRESSES = new Set(publicDevKeys().map((k) => k.address.toLowerCase()));

let outsideEthereum: SeededChain;
let outside: LocalFacilitator;
const servers: TestServer[] = [];

beforeAll(async () => {
  [outsideEthereum, outside] = await Promise.all([
    startSeededChain(EMBEDDED_CHAIN_PLANS.ethereum),
    startLocalFacilitator(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all([outsideEthereum?.stop(), outside?.close()]);
});

const live = () => ({
  eth: { ETH_RPC_URL: outsideEthereum.rpcUrl },
  base: { BASE_RPC_URL: outside.chain.rpcUrl },
  facilitator: { X402_FACILITATOR_URL: outside.url },
});

/** Every offer the server makes, from its discovery document and a 402: each names this receiver, nothing else. */
async function offeredReceivers(server: TestServer): Promise<{ receivers: Set<string>; facilitator: string }> {
  const doc = await (await server.get('/.well-known/x402')).json();
  expect((await server.get(CHECKSUM)).status).toBe(200);
  const refused = await server.get(CHECKSUM);
  expect(refused.status).toBe(402);
  const offer = await refused.json();
  const receivers = new Set<string>([
    doc.receiver,
    offer.recipient,
    ...offer.accepts.map((a: { payTo: string }) => a.payTo),
  ]);
  return { receivers, facilitator: doc.facilitator };
}

async function serve(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ ...ONE_FREE_CALL, ...env });
  servers.push(server);
  return server;
}

const partModes = async (server: TestServer) =>
  Object.fromEntries(
    ((await (await server.get('/api/sources/health')).json()).parts as { part: string; mode: string }[]).map((p) => [
      p.part,
      p.mode,
    ]),
  );

describe('over every mix of live and demo parts, the server refuses or offers payment only to its own receiver', () => {
  it('decides every one of the 64 mixes of Ethereum, Base, facilitator, staging flag, secrets and NODE_ENV: refused, or no public receiver and no embedded facilitator once live', () => {
    const flags = ['eth', 'base', 'facilitator', 'staging', 'secrets', 'production'] as const;
    for (let mask = 0; mask < 2 ** flags.length; mask++) {
      const on = (flag: (typeof flags)[number]) => (mask & (1 << flags.indexOf(flag))) !== 0;
      const env = {
        ...(on('eth') ? { ETH_RPC_URL: 'https://eth.example' } : {}),
        ...(on('base') ? { BASE_RPC_URL: 'https://base.example' } : {}),
        ...(on('facilitator') ? { X402_FACILITATOR_URL: 'https://facilitator.example' } : {}),
        ...(on('staging') ? { X402_STAGING_EMBEDDED_FACILITATOR: 'true' } : {}),
        ...(on('secrets') ? LIVE_SECRETS : {}),
        ...(on('production') ? { NODE_ENV: 'production' } : {}),
      };
      const config = loadConfig(env);
      const refusals = liveRefusals(config);
      const isLive = on('eth') || on('base') || on('facilitator') || on('production');
      expect(PUBLIC_ADDRESSES.has(config.x402.receiver.toLowerCase())).toBe(false);
      if (!isLive) {
        expect(refusals, JSON.stringify(env)).toEqual([]);
        continue;
      }
      // Live: refused exactly while a receiver, key or secret is missing, or only the embedded facilitator settles.
      const embeddedFacilitator = !on('facilitator') && !on('eth');
      expect(refusals.length > 0, JSON.stringify(env)).toBe(!on('secrets') || (embeddedFacilitator && !on('staging')));
      for (const line of refusals) expect(line).toMatch(/^[A-Z0-9_]+: /);
      if (refusals.length === 0) {
        expect(config.x402.receiver).toBe(LIVE_SECRETS.X402_RECEIVER);
        expect(config.x402.facilitatorUrl !== undefined || on('staging')).toBe(true);
      }
    }
  });

  it.each([
    ['a live Ethereum and nothing else', () => live().eth, /^X402_RECEIVER: unset while ETH_RPC_URL is live/],
    [
      'a live Base with the embedded facilitator',
      () => ({ ...live().base, ...LIVE_SECRETS }),
      /^X402_FACILITATOR_URL: /,
    ],
    ['a live facilitator and no receiver', () => live().facilitator, /^X402_RECEIVER: /],
    [
      'NODE_ENV=production on the embedded chains',
      () => ({ NODE_ENV: 'production', ...LIVE_SECRETS }),
      /^X402_FACILITATOR_URL: /,
    ],
    [
      "anvil's account #9 as receiver on the embedded default",
      () => ({ X402_RECEIVER: getDevAccounts()[9]!.address }),
      /^X402_RECEIVER: 0x\w+ is anvil's public development account #9/,
    ],
    [
      "everything live with anvil's key #0 as CCIP signer",
      () => ({
        ...live().eth,
        ...live().base,
        ...live().facilitator,
        ...LIVE_SECRETS,
        CCIP_SIGNER_KEY: publicDevKeys()[0]!.privateKey,
      }),
      /^CCIP_SIGNER_KEY: is anvil's public development key #0/,
    ],
  ])('refuses %s with a line naming the variable, before anything listens', async (_name, env, line) => {
    const refusal = startTestServer(env());
    await expect(refusal).rejects.toThrow(line);
  });

  it('the embedded default (every part demo) listens on loopback only and offers payment to the demo receiver through the embedded facilitator', async () => {
    // HOST unset (an empty value is unset): the embedded default binds 127.0.0.1, never every interface.
    const server = await serve({ HOST: '' });
    expect(server.app.server.address()).toMatchObject({ address: '127.0.0.1' });
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([DEMO_X402_RECEIVER]);
    expect(facilitator).toBe(server.localFacilitator!.url);
    expect(Object.values(await partModes(server)).every((mode) => mode === 'demo')).toBe(true);
  });

  it('a live facilitator on the embedded chains: offers name the configured receiver, and a payment settles to it through that facilitator', async () => {
    const server = await serve({ ...live().facilitator, ...LIVE_SECRETS });
    expect(server.localFacilitator).toBeUndefined();
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([LIVE_SECRETS.X402_RECEIVER]);
    expect(facilitator).toBe(outside.url);
    expect(await partModes(server)).toMatchObject({ facilitator: 'live', receiver: 'live', ethereum: 'demo' });
    // Paid with x402's own v1 client: the outside facilitator settles on its chain, to the configured receiver.
    const balance = () =>
      createPublicClient({ transport: http(outside.chain.rpcUrl) }).readContract({
        address: USDC_ON_BASE,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [LIVE_SECRETS.X402_RECEIVER],
      });
    const before = await balance();
    const paid = await wrapFetchV1(fetch, getDevAccounts()[2]!)(`${server.url}${CHECKSUM}`);
    expect(paid.status).toBe(200);
    expect(await balance()).toBe(before + 5000n);
  });

  it('everything live (Ethereum, Base, facilitator, receiver, signer, secret): nothing embedded starts, offers name the configured receiver', async () => {
    // HOST unset: a live configuration listens on every interface, as a deployment does.
    const server = await serve({ ...live().eth, ...live().base, ...live().facilitator, ...LIVE_SECRETS, HOST: '' });
    expect(server.app.server.address()).toMatchObject({ address: '0.0.0.0' });
    expect(server.localChain).toBeUndefined();
    expect(server.localFacilitator).toBeUndefined();
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([LIVE_SECRETS.X402_RECEIVER]);
    expect(facilitator).toBe(outside.url);
    expect(await partModes(server)).toMatchObject({
      ethereum: 'live',
      base: 'live',
      facilitator: 'live',
      receiver: 'live',
      'ccip-signer': 'live',
      'jwt-secret': 'live',
    });
  });

  it('a live Ethereum with no facilitator named: the public x402.org facilitator, the configured receiver', async () => {
    const server = await serve({ ...live().eth, ...LIVE_SECRETS });
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([LIVE_SECRETS.X402_RECEIVER]);
    expect(facilitator).toBe(PUBLIC_X402_FACILITATOR);
  });

  it('a live Base with X402_STAGING_EMBEDDED_FACILITATOR=true (staging): serves, the embedded facilitator shown as demo', async () => {
    const server = await serve({ ...live().base, ...LIVE_SECRETS, X402_STAGING_EMBEDDED_FACILITATOR: 'true' });
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([LIVE_SECRETS.X402_RECEIVER]);
    expect(facilitator).toBe(server.localFacilitator!.url);
    expect(await partModes(server)).toMatchObject({ base: 'live', facilitator: 'demo' });
  });

  it('NODE_ENV=production with a live facilitator and its secrets: serves, offers name the configured receiver', async () => {
    const server = await serve({ NODE_ENV: 'production', ...live().facilitator, ...LIVE_SECRETS });
    const { receivers, facilitator } = await offeredReceivers(server);
    expect([...receivers]).toEqual([LIVE_SECRETS.X402_RECEIVER]);
    expect(facilitator).toBe(outside.url);
  });
});
