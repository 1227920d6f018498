import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import {
  type RunningProcess,
  startHiveGateway,
  startSubgraphProcesses,
  writeSupergraph,
} from '../helpers/federation-processes.js';
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
  let subgraphUrls: Map<string, string>;
  let gateway: RunningProcess | undefined;

  beforeAll(async () => {
    const started = await Promise.all([
      startTestServer(),
      // Development mode on purpose: Apollo Server would add stack traces there unless told never to.
      startSubgraphProcesses({
        names: SUBGRAPH_MODULES.map((m) => m.name),
        env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
        dataDirRoot: scratch,
      }),
    ]);
    server = started[0];
    stopSubgraphs = started[1].stop;
    subgraphUrls = new Map([...started[1].subgraphs].map(([name, sub]) => [name, sub.url]));
    const supergraphFile = join(scratch, 'supergraph.graphql');
    await writeSupergraph(subgraphUrls, supergraphFile);
    gateway = await startHiveGateway({ supergraphFile });
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
});
