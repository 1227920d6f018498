import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createEnsSources } from '../../src/sources/ens/ens-sources.js';
import { EnsSubgraphClient } from '../../src/sources/ens/ens-subgraph-client.js';
import type { ChainClients } from '../../src/sources/rpc/chain-clients.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

describe('ENS subgraph client (names by address) against recorded replies', () => {
  let replay: ReplayServer;
  let registry: SourceHealthRegistry;
  let subgraph: EnsSubgraphClient;

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(async () => {
    await replay?.close();
  });
  beforeEach(() => {
    replay.setScenario('ens-subgraph', null);
    registry = new SourceHealthRegistry();
    subgraph = new EnsSubgraphClient({
      url: `${replay.baseUrlFor('ens-subgraph')}/subgraphs/name/ensdomains/ens`,
      mode: 'local',
      registry,
      timeoutMs: 1000,
    });
  });

  it('asks one GraphQL POST and maps domains: expired and unnamed ones left out, wrapped owner as controller', async () => {
    const domains = await subgraph.domainsOf(VITALIK);
    expect(domains).toEqual([
      { name: 'pay.vitalik.eth', registrant: null, controller: VITALIK, expiresAt: null },
      { name: 'vitalik.eth', registrant: VITALIK, controller: VITALIK, expiresAt: 2051222400 },
      {
        name: 'wrapped-name.eth',
        registrant: '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401',
        controller: VITALIK,
        expiresAt: 2040000000,
      },
    ]);
    // Cached for a minute: a second ask sends nothing.
    await subgraph.domainsOf(VITALIK);
    expect(replay.requestCount('ens-subgraph')).toBe(1);
    expect(registry.list()).toContainEqual(expect.objectContaining({ name: 'ens-subgraph', state: 'up' }));
  });

  it('asks the records of names in one GraphQL POST (RecordsOfNames): keys once each, in order; no resolver or unknown name lists none', async () => {
    const before = replay.requestCount('ens-subgraph');
    const keys = await subgraph.recordKeys(['vitalik.eth', 'pay.vitalik.eth', 'nick.eth', 'unknown-to-the-graph.eth']);
    expect(keys).toEqual([
      {
        textKeys: ['url', 'avatar', 'com.twitter', 'com.github', 'description'],
        coinTypes: [60, 0, 0x8000_2105],
        contentHash: true,
      },
      { textKeys: [], coinTypes: [60], contentHash: false },
      { textKeys: [], coinTypes: [], contentHash: false },
      { textKeys: [], coinTypes: [], contentHash: false },
    ]);
    expect(replay.requestCount('ens-subgraph') - before).toBe(1);
    // The names-by-address query is told apart by its body: it still gets its own recorded reply.
    expect((await subgraph.domainsOf(VITALIK)).map((d) => d.name)).toContain('vitalik.eth');
  });

  it('a failing subgraph is 503 SERVICE_UNAVAILABLE', async () => {
    replay.setScenario('ens-subgraph', 'down');
    const failure = await subgraph.domainsOf(VITALIK).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it('GraphQL errors in a 200 reply are an upstream failure too, reported to health', async () => {
    replay.setScenario('ens-subgraph', 'graphql-error');
    await expect(subgraph.domainsOf(VITALIK)).rejects.toMatchObject({ status: 503 });
    await expect(subgraph.recordKeys(['vitalik.eth'])).rejects.toMatchObject({ status: 503 });
    const status = registry.list().find((s) => s.name === 'ens-subgraph');
    expect(status?.lastError).toMatch(/unexpected reply shape/);
  });

  it('with ENS_SUBGRAPH_URL the records a name has come from the subgraph, labelled ens-subgraph in health', async () => {
    const absent = { mode: 'absent', client: undefined } as const;
    const chains = {
      ethereum: { key: 'ethereum', chainId: 1, ...absent },
      base: { key: 'base', chainId: 8453, ...absent },
    };
    // Its own registry: the suite's client already holds the name `ens-subgraph` in the shared one.
    const health = new SourceHealthRegistry();
    const sources = createEnsSources({
      chains: chains as unknown as ChainClients,
      rpc: {} as never,
      registry: health,
      subgraphUrl: `${replay.baseUrlFor('ens-subgraph')}/subgraphs/name/ensdomains/ens`,
      timeoutMs: 1000,
    });
    expect(sources.recordKeys).toBeInstanceOf(EnsSubgraphClient);
    const [vitalik] = (await sources.recordKeys?.recordKeys(['vitalik.eth'])) ?? [];
    expect(vitalik?.textKeys).toContain('com.twitter');
    // createEnsSources labels it live (ENS_SUBGRAPH_URL is an upstream), whatever host answers.
    expect(health.list()).toContainEqual(
      expect.objectContaining({
        name: 'ens-subgraph',
        mode: 'live',
        description: expect.stringMatching(/records a name has/),
      }),
    );
  });

  it('without it, and without an embedded chain, there is no records source (the field answers 503)', () => {
    const absent = { mode: 'absent', client: undefined } as const;
    const chains = {
      ethereum: { key: 'ethereum', chainId: 1, ...absent },
      base: { key: 'base', chainId: 8453, ...absent },
    };
    const sources = createEnsSources({
      chains: chains as unknown as ChainClients,
      rpc: {} as never,
      registry,
      timeoutMs: 1000,
    });
    expect(sources.recordKeys).toBeUndefined();
  });
});
