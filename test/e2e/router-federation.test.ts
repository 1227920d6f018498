import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { runDemo } from '../../src/server/demo.js';
import { SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import type { SubgraphName } from '../../subgraphs/shared/build-subgraph.js';
import {
  printedChainUrl,
  type RunningProcess,
  startHiveGateway,
  startSubgraphProcesses,
  writeSupergraph,
} from '../helpers/federation-processes.js';
import { causeUntilDelivered, reading } from '../helpers/live-reading.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The cross-subgraph operations a frontend sends; none selects a time of day (each process seeds its own chain). */
const CROSS_SUBGRAPH = {
  'ENS profile → wallet → Farcaster user': `{
    ensProfile(name: "alice.eth") {
      name address avatar records { key value }
      wallet {
        address primaryName
        balance { symbol balance tokens { symbol balance priceUsd } }
        farcasterUser { fid username displayName followers verifications recentCasts(limit: 2) { hash text author { username } } }
      }
    }
  }`,
  'ENS names and token prices': `{
    ensProfiles(names: ["alice.eth", "bob.eth", "carol.eth", "nobody-here.eth"]) { name address wallet { primaryName } }
    tokenPrices(symbols: ["ETH", "USDC", "BTC"]) { symbol price change24h marketCap }
  }`,
  'Farcaster user → its ENS name': `{
    farcasterUser(identifier: "alice") { fid username verifiedWallets { address primaryName farcasterUser { fid } } }
  }`,
};

/**
 * Hive Gateway's config, as docs/live-data.md#under-a-router shows it: the wallet subgraph's subscriptions over GraphQL
 * over WebSocket; every other subgraph's over SSE, the gateway's default.
 */
/** Hive Gateway's config file as docs/live-data.md#under-a-router gives it (the wallet subgraph over WebSocket). */
const GATEWAY_CONFIG = /```js\n\/\/ gateway\.config\.mjs\n([\s\S]*?)```/.exec(
  readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'live-data.md'), 'utf8'),
)![1]!;

/** `npm run demo -- <args>` with DEMO_RPC_URL, as a person sends to a subgraph's own chain: its transaction's hash. */
function demo(rpcUrl: string, ...args: string[]): () => Promise<string> {
  return async () => {
    let out = '';
    const code = await runDemo(args, { env: { DEMO_RPC_URL: rpcUrl }, write: (t) => void (out += t) });
    expect(code, out).toBe(0);
    return /^transaction (0x[0-9a-f]{64}) /m.exec(out)![1]!;
  };
}

async function postGraphql(url: string, query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the subgraphs under Hive Gateway, each served alone by npm run subgraph', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'api-router-'));
  let server: TestServer;
  let stopSubgraphs: (() => Promise<void>) | undefined;
  let subgraphs: Map<SubgraphName, RunningProcess>;
  let subgraphUrls: Map<string, string>;
  let gateway: RunningProcess | undefined;

  beforeAll(async () => {
    const started = await Promise.all([
      startTestServer(),
      // Development mode on purpose: Apollo Server would add stack traces there unless told never to.
      startSubgraphProcesses({
        names: SUBGRAPH_MODULES.map((m) => m.name),
        // Chain events detected every 100 ms (as live-subscriptions.test), not every second: the streams' tests wait less.
        env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', WEBHOOK_POLL_MS: '100' },
        dataDirRoot: scratch,
      }),
    ]);
    server = started[0];
    stopSubgraphs = started[1].stop;
    subgraphs = started[1].subgraphs;
    subgraphUrls = new Map([...subgraphs].map(([name, sub]) => [name, sub.url]));
    const supergraphFile = join(scratch, 'supergraph.graphql');
    await writeSupergraph(subgraphUrls, supergraphFile);
    const configFile = join(scratch, 'gateway.config.mjs');
    writeFileSync(configFile, GATEWAY_CONFIG);
    gateway = await startHiveGateway({ supergraphFile, configFile });
  }, 300_000);

  afterAll(async () => {
    await gateway?.stop();
    await stopSubgraphs?.();
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  for (const [name, query] of Object.entries(CROSS_SUBGRAPH)) {
    it(`${name}: Hive Gateway returns byte-identical data to the server's own /graphql`, async () => {
      const ours = await postGraphql(server.url, query);
      const theirs = await postGraphql(gateway!.url, query);
      expect(ours.status).toBe(200);
      expect(ours.body.errors).toBeUndefined();
      expect(theirs.body.errors).toBeUndefined();
      expect(JSON.stringify(theirs.body.data)).toBe(JSON.stringify(ours.body.data));
    });
  }

  it('a subgraph served alone answers ENS and lists the embedded chain’s tokens, as inside the server', async () => {
    const ens = await postGraphql(subgraphUrls.get('ens')!, '{ ensResolve(name: "alice.eth") { address } }');
    expect(ens.body).toEqual({ data: { ensResolve: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } } });
    const query =
      '{ _entities(representations: [{ __typename: "Wallet", address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }]) { ... on Wallet { balance { tokens { symbol } } } } }';
    const wallet = await postGraphql(subgraphUrls.get('wallet')!, query);
    const [entity] = (wallet.body.data as { _entities: { balance: { tokens: unknown[] } }[] })._entities;
    expect(entity!.balance.tokens.length).toBeGreaterThan(0);
  });

  it('stack traces never leave a subgraph (an invalid argument, an unknown field), directly or through the router', async () => {
    for (const url of [subgraphUrls.get('ens')!, gateway!.url]) {
      for (const query of ['{ ensProfile(name: "no-dot") { name } }', '{ ensProfile(name: "a.eth") { nope } }']) {
        const { body } = await postGraphql(url, query);
        expect(body.errors).toBeDefined();
        expect(JSON.stringify(body)).not.toMatch(/stacktrace|\.js:\d+|\.ts:\d+/);
      }
    }
    const invalid = await postGraphql(subgraphUrls.get('ens')!, '{ ensProfile(name: "no-dot") { name } }');
    expect((invalid.body.errors as { extensions: unknown }[])[0]!.extensions).toEqual({
      code: 'INVALID_PARAMETER',
      status: 400,
    });
  });

  describe('subscriptions: each subgraph streams its own, and Hive Gateway delivers them', () => {
    it('ensEvents, over SSE from the ens subgraph: a graphql-sse client gets each record change on its chain once', async () => {
      const client = createSseClient({ url: `${gateway!.url}/graphql`, retryAttempts: 0 });
      const stream = reading(
        client.iterate({ query: 'subscription { ensEvents(names: ["alice.eth"]) { id type data } }' }),
      );
      try {
        const chain = printedChainUrl(subgraphs.get('ens')!, 'ethereum');
        const setUrl = demo(chain, 'text', 'alice.eth', 'url', 'https://alice.example/r');
        const last = await causeUntilDelivered(stream, setUrl, (e) => e.data.transactionHash);
        expect(stream.errors).toEqual([]);
        expect(new Set(stream.got.map((e) => e.id)).size).toBe(stream.got.length);
        const events = stream.got.filter((e) => e.data.transactionHash === last);
        expect(events).toHaveLength(1);
        expect(events[0]!.type).toBe('ens.record_changed');
        expect(events[0]!.data).toMatchObject({ name: 'alice.eth', key: 'url', value: 'https://alice.example/r' });
      } finally {
        await stream.stop();
        client.dispose();
      }
    });

    it('walletTransfers, over WebSocket from the wallet subgraph: a graphql-ws client gets each transfer on its chain once', async () => {
      const bob = getDevAccounts()[2]!.address;
      const client = createWsClient({
        url: `${gateway!.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      const stream = reading(
        client.iterate({ query: `subscription { walletTransfers(addresses: ["${bob}"]) { id type data } }` }),
      );
      try {
        const chain = printedChainUrl(subgraphs.get('wallet')!, 'ethereum');
        const last = await causeUntilDelivered(stream, demo(chain, 'eth', bob, '0.01'), (e) => e.data.transactionHash);
        expect(stream.errors).toEqual([]);
        expect(new Set(stream.got.map((e) => e.id)).size).toBe(stream.got.length);
        const events = stream.got.filter((e) => e.data.transactionHash === last);
        expect(events).toHaveLength(1);
        expect(events[0]!.type).toBe('wallet.transfer');
        expect(String(events[0]!.data.to).toLowerCase()).toBe(bob.toLowerCase());
      } finally {
        await stream.stop();
        await client.dispose();
      }
    });

    it('each field’s argument a webhook filter would refuse ends its stream with its subgraph’s INVALID_PARAMETER, no stack trace', async () => {
      const refused = {
        ens: 'subscription { ensEvents(names: ["no-dot"]) { id } }',
        wallet: 'subscription { walletTransfers(addresses: ["0x12"]) { id } }',
        prices: 'subscription { priceAlerts(symbol: "ETH") { id } }',
        farcaster: 'subscription { farcasterCasts(fids: []) { id } }',
      };
      const client = createSseClient({ url: `${gateway!.url}/graphql`, retryAttempts: 0 });
      try {
        for (const [subgraph, query] of Object.entries(refused)) {
          const results = [];
          for await (const result of client.iterate({ query })) results.push(result);
          expect(results, subgraph).toHaveLength(1);
          expect(results[0]!.errors?.[0]?.extensions, subgraph).toMatchObject({
            code: 'INVALID_PARAMETER',
            status: 400,
            serviceName: subgraph,
          });
          expect(JSON.stringify(results)).not.toMatch(/stacktrace|\.js:\d+|\.ts:\d+/);
        }
      } finally {
        client.dispose();
      }
    });
  });
});
