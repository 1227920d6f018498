import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkSources } from '../../checks/source-contracts/check-sources.js';
import { VENDOR_CONTRACTS } from '../../checks/source-contracts/vendor-contracts.js';
import { runSourcesCheck } from '../../checks/sources-check.js';
import { loadConfig } from '../../src/config/config.js';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { type ReplayRoute, replayRoutingFetch } from '../helpers/replay-routing-fetch.js';

/** The env an operator sets to go live everywhere: real upstream URLs and keys (the replay answers in their place). */
const LIVE_ENV = {
  COINGECKO_API_URL: 'https://pro-api.coingecko.com',
  COINGECKO_API_KEY: 'cg-pro-key-123',
  DEFILLAMA_COINS_URL: 'https://coins.llama.fi',
  COINBASE_API_URL: 'https://api.coinbase.com',
  NEYNAR_API_KEY: 'neynar-key-123',
  FARCASTER_HUB_URL: 'https://snapchain-api.neynar.com',
  FARCASTER_HUB_API_KEY: 'neynar-key-123',
  ETHERSCAN_API_KEY: 'etherscan-key-123',
  SOURCIFY_API_URL: 'https://sourcify.dev/server',
  // The replay records Alchemy's and DefiLlama pro's paths with this key in them.
  ALCHEMY_API_KEY: 'replay-key',
  DEFILLAMA_API_URL: 'https://api.llama.fi',
  DEFILLAMA_YIELDS_URL: 'https://yields.llama.fi',
  DEFILLAMA_PRO_API_KEY: 'replay-key',
  DEBANK_ACCESS_KEY: 'debank-key-123',
  GROWTHEPIE_API_URL: 'https://api.growthepie.com',
  ENS_SUBGRAPH_URL: 'https://gateway.thegraph.com/subgraphs/name/ensdomains/ens',
  ETH_RPC_URL: 'https://ethereum-rpc.publicnode.com',
};

const ALL_SOURCES = [
  'coingecko',
  'defillama-coins',
  'coinbase',
  'neynar',
  'farcaster-hub',
  'etherscan',
  'sourcify',
  'alchemy-nft',
  'defillama',
  'defillama-yields',
  'defillama-pro',
  'debank',
  'growthepie',
  'ens-subgraph',
  'rpc:ethereum',
];

describe('npm run sources:check: one cheap request per configured source: reachable, authenticated, matching its contract', () => {
  let replay: ReplayServer;
  /** Each vendor's live base URL answered by its replay folder (a GraphQL / JSON-RPC folder records the whole path). */
  const routes = (): ReplayRoute[] =>
    VENDOR_CONTRACTS.map((v) => [v.singleEndpoint ? new URL(v.liveBase).origin : v.liveBase, v.source] as const);

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(() => replay.close());
  beforeEach(() => {
    for (const v of VENDOR_CONTRACTS) replay.setScenario(v.source, null);
    replay.resetCounts();
  });

  it('every configured source answers its probe, accepts its key and matches its contract; exit code 0', async () => {
    const checks = await checkSources({ config: loadConfig(LIVE_ENV), fetch: replayRoutingFetch(replay, routes()) });
    expect(checks.map((c) => c.source)).toEqual(ALL_SOURCES);
    for (const check of checks) {
      expect(check, check.source).toMatchObject({ reachable: true, contract: 'matches', ok: true, problems: [] });
    }
    const auth = Object.fromEntries(checks.map((c) => [c.source, c.authenticated]));
    expect(auth).toMatchObject({
      coingecko: 'yes',
      neynar: 'yes',
      etherscan: 'yes',
      'alchemy-nft': 'yes',
      'defillama-pro': 'yes',
      debank: 'yes',
      coinbase: 'no key needed',
      sourcify: 'no key needed',
      'rpc:ethereum': 'yes',
    });
    // One request each, no retry.
    expect(replay.requestCount()).toBe(ALL_SOURCES.length);
  });

  it('the report is a table of every source, with no key in it, and the exit code says all is well', async () => {
    let out = '';
    const code = await runSourcesCheck({
      env: LIVE_ENV,
      fetch: replayRoutingFetch(replay, routes()),
      write: (text) => {
        out += text;
      },
    });
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^source +origin +reachable +authenticated +contract +result$/);
    expect(out).toMatch(/^coingecko +https:\/\/pro-api\.coingecko\.com +yes \(200\) +yes +matches coingecko-pro +ok$/m);
    for (const secret of ['cg-pro-key-123', 'neynar-key-123', 'etherscan-key-123', 'debank-key-123']) {
      expect(out).not.toContain(secret);
    }
  });

  it('a refused key is "authenticated: no", whether the upstream says so with a 401 or inside a 200 (Etherscan)', async () => {
    for (const source of ['neynar', 'coingecko', 'etherscan', 'json-rpc']) replay.setScenario(source, 'unauthorized');
    const checks = await checkSources({ config: loadConfig(LIVE_ENV), fetch: replayRoutingFetch(replay, routes()) });
    const bySource = new Map(checks.map((c) => [c.source, c]));
    for (const source of ['neynar', 'coingecko', 'etherscan', 'rpc:ethereum']) {
      expect(bySource.get(source), source).toMatchObject({ reachable: true, authenticated: 'no', ok: false });
      expect(bySource.get(source)!.problems[0]).toMatch(/refused the key/);
    }
    // The refusals themselves are the vendors' documented error shapes.
    expect(bySource.get('neynar')!.contract).toBe('matches');
    expect(bySource.get('farcaster-hub')!.ok).toBe(true);
  });

  it('an upstream that does not answer is unreachable; a gateway page or a broken body differs from the contract', async () => {
    replay.setScenario('coinbase', 'down');
    replay.setScenario('growthepie', 'malformed');
    const withoutDebank = routes().filter(([, source]) => source !== 'debank');
    const checks = await checkSources({
      config: loadConfig(LIVE_ENV),
      fetch: replayRoutingFetch(replay, withoutDebank),
    });
    const bySource = new Map(checks.map((c) => [c.source, c]));
    expect(bySource.get('debank')).toMatchObject({
      reachable: false,
      authenticated: 'unknown',
      contract: 'no reply',
      ok: false,
      problems: ['network error (ENOTFOUND)'],
    });
    expect(bySource.get('coinbase')).toMatchObject({
      reachable: true,
      status: 503,
      authenticated: 'unknown',
      ok: false,
    });
    expect(bySource.get('growthepie')).toMatchObject({ reachable: true, contract: 'differs', ok: false });
    expect(bySource.get('growthepie')!.problems).toContain('reply: HTTP 200 with a body that is not JSON');
  });

  it('with nothing configured it says so (exit 0); a configuration refused at start exits 2 naming the variable', async () => {
    let out = '';
    const write = (text: string) => {
      out += text;
    };
    expect(await runSourcesCheck({ env: {}, write })).toBe(0);
    expect(out).toMatch(/No upstream is configured live/);
    expect(await runSourcesCheck({ env: { ETHERSCAN_API_URL: 'https://api.etherscan.io' }, write })).toBe(2);
    expect(out).toMatch(/ETHERSCAN_API_KEY/);
  });
});
