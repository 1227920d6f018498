import { accountSubgraph } from './account/index.js';
import { ccipSubgraph } from './ccip/index.js';
import { chainSubgraph } from './chain/index.js';
import { defiSubgraph } from './defi/index.js';
import { ensSubgraph } from './ens/index.js';
import { farcasterSubgraph } from './farcaster/index.js';
import { pricesSubgraph } from './prices/index.js';
import { type BuiltSubgraph, buildSubgraph, type SubgraphModule } from './shared/build-subgraph.js';
import { walletSubgraph } from './wallet/index.js';
import { webhooksSubgraph } from './webhooks/index.js';

/** Every subgraph the supergraph is composed of; a domain joins by adding its module here. */
export const SUBGRAPH_MODULES: readonly SubgraphModule[] = [
  chainSubgraph,
  accountSubgraph,
  pricesSubgraph,
  farcasterSubgraph,
  defiSubgraph,
  walletSubgraph,
  ensSubgraph,
  ccipSubgraph,
  webhooksSubgraph,
];

export async function buildAllSubgraphs(): Promise<BuiltSubgraph[]> {
  const built: BuiltSubgraph[] = [];
  for (const mod of SUBGRAPH_MODULES) built.push(await buildSubgraph(mod));
  return built;
}
