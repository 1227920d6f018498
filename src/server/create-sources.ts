import type { AppConfig } from '../config/config.js';
import { createGasPriceSource } from '../sources/gas-price-source.js';
import { createPriceSources, type PriceUpstream } from '../sources/prices/price-sources.js';
import { defaultFixturesDir, type ReplayServer, startReplayServer } from '../sources/replay/replay-server.js';
import { createChainClients } from '../sources/rpc/chain-clients.js';
import { createRpcSourceClients } from '../sources/rpc/rpc-source-clients.js';
import { SourceHealthRegistry } from '../sources/source-health.js';
import type { Sources } from '../sources/sources.js';

export interface CreatedSources {
  sources: Sources;
  /** The local replay of recorded upstream replies, when any source runs in local mode. */
  replay: ReplayServer | undefined;
  close(): Promise<void>;
}

/**
 * Every upstream client, each live where its env var is set and local otherwise (the embedded chain, or the
 * replay of recorded replies on an ephemeral loopback port), all reporting to one health registry.
 */
export async function createSources(p: {
  config: AppConfig;
  localRpcUrl: string | undefined;
  /** Where recorded replies live; default test/fixtures of this checkout. */
  fixturesDir?: string;
}): Promise<CreatedSources> {
  const { config } = p;
  const health = new SourceHealthRegistry();
  const chains = createChainClients({
    chains: config.chains,
    localRpcUrl: p.localRpcUrl,
    timeoutMs: config.upstreamTimeoutMs,
  });
  const rpc = createRpcSourceClients({ chains, registry: health, timeoutMs: config.upstreamTimeoutMs });

  // Started only when some source has no live URL configured; ephemeral port, so instances never collide.
  const { coingecko, defillamaCoins, coinbase } = config.upstreams;
  const needsReplay = [coingecko.url, defillamaCoins.url, coinbase.url].some((url) => url === undefined);
  const replay = needsReplay ? await startReplayServer({ fixturesDir: p.fixturesDir ?? defaultFixturesDir() }) : undefined;
  // Live where the env var names the upstream, else the replay's recordings under test/fixtures/<source>/.
  const upstream = (url: string | undefined, replayName: string): PriceUpstream =>
    url !== undefined ? { baseUrl: url, mode: 'live' } : { baseUrl: replay!.baseUrlFor(replayName), mode: 'local' };
  const prices = createPriceSources({
    coingecko: { ...upstream(coingecko.url, 'coingecko'), apiKey: coingecko.apiKey },
    defillamaCoins: upstream(defillamaCoins.url, 'defillama-coins'),
    coinbase: upstream(coinbase.url, 'coinbase'),
    registry: health,
    timeoutMs: config.upstreamTimeoutMs,
  });

  const sources: Sources = { health, chains, rpc, gas: createGasPriceSource({ chains, rpc }), prices };
  return {
    sources,
    replay,
    close: async () => {
      await replay?.close();
    },
  };
}
