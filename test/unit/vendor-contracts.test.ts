import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceProbes } from '../../checks/source-contracts/source-probes.js';
import { type ContractOperation, VendorContract } from '../../checks/source-contracts/vendor-contract.js';
import {
  loadVendorContract,
  readVendorDocument,
  requestExpectations,
  VENDOR_CONTRACTS,
  type VendorContractSpec,
} from '../../checks/source-contracts/vendor-contracts.js';
import { loadConfig } from '../../src/config/config.js';
import { loadReplayFixtures, type ReplayEntry } from '../../src/embedded/replay/replay-fixtures.js';
import { defaultRecordingsDir, type ReplayServer, startReplayServer } from '../../src/embedded/replay/replay-server.js';
import { DebankClient } from '../../src/sources/defi/debank-client.js';
import { DefiLlamaClient } from '../../src/sources/defi/defillama-client.js';
import { DefiLlamaProClient } from '../../src/sources/defi/defillama-pro-client.js';
import { DefiLlamaYieldsClient } from '../../src/sources/defi/defillama-yields-client.js';
import { GrowthepieClient } from '../../src/sources/defi/growthepie-client.js';
import { EnsSubgraphClient } from '../../src/sources/ens/ens-subgraph-client.js';
import { EtherscanClient } from '../../src/sources/explorer/etherscan-client.js';
import { SourcifyClient } from '../../src/sources/explorer/sourcify-client.js';
import { FarcasterHubClient } from '../../src/sources/farcaster/farcaster-hub-client.js';
import { NeynarClient } from '../../src/sources/farcaster/neynar-client.js';
import { AlchemyNftClient } from '../../src/sources/nft/alchemy-nft-client.js';
import { CoinbaseSpotClient } from '../../src/sources/prices/coinbase-spot-client.js';
import { CoinGeckoClient } from '../../src/sources/prices/coingecko-client.js';
import { DefiLlamaCoinsClient } from '../../src/sources/prices/defillama-coins-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { replayRoutingFetch, type SentUpstreamRequest } from '../helpers/replay-routing-fetch.js';

/** The key the replay's recorded paths carry where a vendor puts the key in the URL path. */
const REPLAY_KEY = 'replay-key';
const FIXTURES = loadReplayFixtures(defaultRecordingsDir());

/** What became of each recorded reply of a vendor. */
interface FixtureTally {
  validated: number;
  /** Deliberately broken replies (`malformed` scenarios) shown to break the contract. */
  malformedRefused: number;
  /** HTML or plain-text bodies of 5xx replies: a gateway's, not the API's. */
  gatewayText: number;
  /** `unexpected-shape` scenarios: valid JSON whose meaning the client must refuse (e.g. a quote in EUR). */
  unexpectedShape: number;
}

/** The contract path a recorded path stands for (the replay folder mirrors the URL after the vendor's base URL). */
function contractPath(spec: VendorContractSpec, recordedPath: string): string {
  if (spec.singleEndpoint) return '/';
  const prefix = spec.pathPrefix.replace('{key}', REPLAY_KEY);
  if (!recordedPath.startsWith(prefix)) throw new Error(`${recordedPath} is not under ${prefix}`);
  return recordedPath.slice(prefix.length) || '/';
}

/** The operations a recorded reply may answer: the one its path names, or every one for a `*` path. */
function operationsOf(contract: VendorContract, spec: VendorContractSpec, entry: ReplayEntry): ContractOperation[] {
  const { method, path } = entry.request;
  if (path !== '*') {
    const found = contract.findOperation(method, contractPath(spec, path));
    return found ? [found] : [];
  }
  const origin = new URL(spec.liveBase).origin;
  // An operation another host serves (DefiLlama's one document covers three hosts) is not this source's.
  return contract.operations().flatMap((o) => {
    const op = contract.findOperation(o.method, o.path);
    return op && op.method === method && contract.isServedFrom(op, origin) ? [op] : [];
  });
}

/** Problems of one JSON reply against one operation: its documented schema, else the vendor's documented error shape. */
function replyProblems(contract: VendorContract, spec: VendorContractSpec, op: ContractOperation, entry: ReplayEntry) {
  const { status, body } = entry.response;
  const check = contract.checkReply(op, status, body);
  if (check.documented) return check.errors;
  if (status < 400) return [`${op.method} ${op.path} documents no ${status} reply`];
  if (!spec.errorReplies) return [`${op.method} ${op.path} documents no ${status} reply and the vendor no error shape`];
  return contract.checkAgainst(spec.errorReplies.schema, body);
}

function tallyFixtures(spec: VendorContractSpec, contract: VendorContract) {
  const tally: FixtureTally = { validated: 0, malformedRefused: 0, gatewayText: 0, unexpectedShape: 0 };
  const problems: string[] = [];
  for (const entry of FIXTURES.get(spec.source) ?? []) {
    const where = `${entry.scenario ?? 'default'} ${entry.request.method} ${entry.request.path} → ${entry.response.status}`;
    if (entry.scenario === 'unexpected-shape') {
      tally.unexpectedShape += 1;
      continue;
    }
    const operations = operationsOf(contract, spec, entry);
    if (operations.length === 0) {
      problems.push(`${where}: no operation of the contract`);
      continue;
    }
    let body = entry.response.body;
    if (entry.response.bodyText !== undefined) {
      try {
        body = JSON.parse(entry.response.bodyText);
      } catch {
        if (entry.scenario === 'malformed') tally.malformedRefused += 1;
        else if (entry.response.status >= 500) tally.gatewayText += 1;
        else problems.push(`${where}: a body that is not JSON`);
        continue;
      }
    }
    const results = operations.map((op) =>
      replyProblems(contract, spec, op, { ...entry, response: { ...entry.response, body } }),
    );
    const valid = results.some((r) => r.length === 0);
    if (entry.scenario === 'malformed') {
      if (valid) problems.push(`${where}: the malformed reply matches the contract`);
      else tally.malformedRefused += 1;
    } else if (valid) tally.validated += 1;
    else problems.push(`${where}: ${results[0]!.slice(0, 5).join('; ')}`);
  }
  return { tally, problems };
}

/** Each vendor's client, built for its live URL with a key, and made to send every request it can send. */
type Exercise = (p: { fetch: typeof fetch; key: string }) => Promise<unknown>;

const common = () => ({
  mode: 'live' as const,
  registry: new SourceHealthRegistry(),
  // What is checked here is the shape of each request, not the deadline: generous enough for a machine under full load.
  timeoutMs: 30_000,
  policy: { retries: 0 },
});
const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const DEMO_HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const EXERCISES: Record<string, Exercise> = {
  neynar: async ({ fetch, key }) => {
    const neynar = new NeynarClient({ ...common(), baseUrl: 'https://api.neynar.com', apiKey: key, fetch });
    await neynar.userByUsername('dwr');
    expect(await neynar.userByUsername('nobody-here')).toBeNull();
    await neynar.usersByFids([3, 2]);
    await neynar.usersByAddresses([VITALIK]);
    const page = await neynar.userCasts(3, 25);
    await neynar.userCasts(3, 25, page.cursor!);
    await neynar.followers(3, 100);
    await neynar.searchUsers('vit', 5);
    await neynar.trendingFeed(10);
  },
  'farcaster-hub': async ({ fetch, key }) => {
    const hub = new FarcasterHubClient({
      ...common(),
      baseUrl: 'https://snapchain-api.neynar.com',
      apiKey: key,
      fetch,
    });
    expect(await hub.fidByUsername('dwr')).toBe(3);
    expect(await hub.fidByUsername('nobody-here')).toBeNull();
    await hub.registeredAt(3);
    await hub.userByFid(3);
    await hub.casts(3, 10);
    await hub.followerFids(3, 10);
  },
  'coingecko-demo': async ({ fetch, key }) => {
    const coingecko = new CoinGeckoClient({ ...common(), baseUrl: 'https://api.coingecko.com', apiKey: key, fetch });
    await coingecko.marketQuotes(['ethereum', 'bitcoin']);
    await coingecko.priceSeries('ethereum', 7);
    expect(await coingecko.priceSeries('not-a-coin', 7)).toBeNull();
    await coingecko.trending();
  },
  'coingecko-pro': async ({ fetch, key }) => {
    const coingecko = new CoinGeckoClient({
      ...common(),
      baseUrl: 'https://pro-api.coingecko.com',
      apiKey: key,
      fetch,
    });
    await coingecko.marketQuotes(['ethereum']);
    await coingecko.priceSeries('bitcoin', 7);
    await coingecko.trending();
  },
  defillama: async ({ fetch }) => {
    const llama = new DefiLlamaClient({ ...common(), baseUrl: 'https://api.llama.fi', fetch });
    await llama.protocols();
    await llama.protocol('lido');
  },
  'defillama-coins': async ({ fetch }) => {
    await new DefiLlamaCoinsClient({ ...common(), baseUrl: 'https://coins.llama.fi', fetch }).currentPrices([
      'ethereum',
    ]);
  },
  'defillama-yields': async ({ fetch }) => {
    await new DefiLlamaYieldsClient({ ...common(), baseUrl: 'https://yields.llama.fi', fetch }).pools();
  },
  'defillama-pro': async ({ fetch, key }) => {
    const pro = new DefiLlamaProClient({ ...common(), baseUrl: `https://pro-api.llama.fi/${key}`, fetch });
    await pro.nextUnlocks();
    await pro.hacks();
    await pro.raises();
  },
  sourcify: async ({ fetch }) => {
    const sourcify = new SourcifyClient({ ...common(), baseUrl: 'https://sourcify.dev/server', fetch });
    expect(await sourcify.contract('ethereum', '0x8398791FBD1a5f0EFB4B3F9d81233104137D815f')).not.toBeNull();
    expect(await sourcify.contract('ethereum', '0x0000000000000000000000000000000000000001')).toBeNull();
  },
  'alchemy-nft': async ({ fetch, key }) => {
    const alchemy = new AlchemyNftClient({
      ...common(),
      baseUrlFor: () => `https://eth-mainnet.g.alchemy.com/nft/v3/${key}`,
      fetch,
    });
    const first = await alchemy.ownedPage('ethereum', '0x90F79bf6EB2c4f870365E785982E1f101E93b906', null);
    await alchemy.ownedPage('ethereum', '0x90F79bf6EB2c4f870365E785982E1f101E93b906', first.pageKey);
  },
  coinbase: async ({ fetch }) => {
    const coinbase = new CoinbaseSpotClient({ ...common(), baseUrl: 'https://api.coinbase.com', fetch });
    await coinbase.spotPrice('ETH-USD');
    expect(await coinbase.spotPrice('NOTACOIN-USD')).toBeNull();
  },
  etherscan: async ({ fetch, key }) => {
    const etherscan = new EtherscanClient({ ...common(), baseUrl: 'https://api.etherscan.io', apiKey: key, fetch });
    await etherscan.transactions('ethereum', DEMO_HOLDER, 5);
    await etherscan.firstTransaction('ethereum', DEMO_HOLDER);
    await etherscan.contractSource('ethereum', '0xab3784d65642a7f73bbf90e1a8ab5293cfa6b38f');
    expect(await etherscan.contractSource('ethereum', '0x0000000000000000000000000000000000000001')).toBeNull();
  },
  debank: async ({ fetch, key }) => {
    const debank = new DebankClient({
      ...common(),
      baseUrl: 'https://pro-openapi.debank.com',
      headers: { AccessKey: key },
      fetch,
    });
    await debank.positions(VITALIK);
  },
  growthepie: async ({ fetch }) => {
    await new GrowthepieClient({ ...common(), baseUrl: 'https://api.growthepie.com', fetch }).chainActivity();
  },
  'json-rpc': async ({ fetch }) => {
    const [probe] = sourceProbes(loadConfig({ ETH_RPC_URL: 'https://ethereum-rpc.publicnode.com' }));
    await probe!.send(fetch);
  },
  'ens-subgraph': async ({ fetch }) => {
    const url = 'https://gateway.thegraph.com/subgraphs/name/ensdomains/ens';
    const subgraph = new EnsSubgraphClient({ ...common(), url, fetch });
    await subgraph.domainsOf(VITALIK);
    await subgraph.recordKeys(['vitalik.eth']);
  },
};

const summary = new Map<string, { fixtures: FixtureTally; requests: number; amendments: number }>();

describe("every upstream speaks its vendor's published contract (or the shape its docs pin)", () => {
  let replay: ReplayServer;

  beforeAll(async () => {
    replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() });
  });
  afterAll(async () => {
    await replay.close();
    const rows = [...summary].map(([vendor, s]) =>
      [
        vendor.padEnd(18),
        String(s.fixtures.validated).padStart(4),
        String(s.fixtures.malformedRefused + s.fixtures.gatewayText + s.fixtures.unexpectedShape).padStart(4),
        String(s.requests).padStart(4),
        String(s.amendments).padStart(3),
      ].join(' '),
    );
    console.log(
      `vendor             replies valid / test-only broken, requests checked, amendments\n${rows.join('\n')}`,
    );
  });

  for (const spec of VENDOR_CONTRACTS) {
    const title =
      'documented' in spec.contract
        ? `${spec.vendor} (no published contract: the shape of ${String(spec.contract.documented['x-doc-page'])})`
        : `${spec.vendor} (${spec.contract.file})`;

    describe(title, () => {
      const entry = () => summary.get(spec.vendor) ?? { fixtures: undefined!, requests: 0, amendments: 0 };

      it('every recorded reply validates against the response schema of its operation and status', () => {
        const contract = loadVendorContract(spec.vendor);
        const { tally, problems } = tallyFixtures(spec, contract);
        expect(problems).toEqual([]);
        expect(tally.validated).toBeGreaterThan(0);
        summary.set(spec.vendor, { ...entry(), fixtures: tally });
      });

      it('every request the client sends matches an operation: path, parameter names and types, and the key where the contract says', async () => {
        const contract = loadVendorContract(spec.vendor);
        const key =
          spec.pathPrefix.includes('{key}') || spec.credentialPathParam ? REPLAY_KEY : `key-for-${spec.vendor}`;
        const sent: SentUpstreamRequest[] = [];
        // A GraphQL endpoint's replay folder records its whole path; other folders record what follows the base URL.
        const route = spec.singleEndpoint ? new URL(spec.liveBase).origin : spec.liveBase;
        const fetch = replayRoutingFetch(replay, [[route, spec.source]], sent);
        const exercise = EXERCISES[spec.vendor];
        expect(exercise, `no exercise for ${spec.vendor}`).toBeDefined();
        await exercise!({ fetch, key });
        expect(sent.length).toBeGreaterThan(0);
        const expectations = requestExpectations(spec, key);
        const problems = sent.flatMap((request) =>
          contract.checkRequest(request, expectations).map((p) => `${request.method} ${request.url.pathname}: ${p}`),
        );
        expect(problems).toEqual([]);
        summary.set(spec.vendor, { ...entry(), requests: sent.length });
      });

      const amendments = 'file' in spec.contract ? (spec.contract.amendments ?? []) : [];
      if (amendments.length > 0) {
        it('each amendment is needed: without it some recorded reply breaks the published contract', () => {
          for (const [i, amendment] of amendments.entries()) {
            const others = amendments.filter((_, j) => j !== i);
            const without = new VendorContract(`${spec.vendor}-without-${i}`, readVendorDocument(spec), others);
            const { problems } = tallyFixtures(spec, without);
            expect(problems.length, `${amendment.reason}: no recorded reply needs it`).toBeGreaterThan(0);
          }
          summary.set(spec.vendor, { ...entry(), amendments: amendments.length });
        });
      }
    });
  }
});
