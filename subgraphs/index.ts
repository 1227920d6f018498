import { accountSubgraph } from './account/index.js';
import { chainSubgraph } from './chain/index.js';
import { pricesSubgraph } from './prices/index.js';
import { type BuiltSubgraph, buildSubgraph, type SubgraphModule } from './shared/build-subgraph.js';

/** Every subgraph the supergraph is composed of; a domain joins by adding its module here. */
export const SUBGRAPH_MODULES: readonly SubgraphModule[] = [chainSubgraph, accountSubgraph, pricesSubgraph];

export async function buildAllSubgraphs(): Promise<BuiltSubgraph[]> {
  const built: BuiltSubgraph[] = [];
  for (const mod of SUBGRAPH_MODULES) built.push(await buildSubgraph(mod));
  return built;
}
