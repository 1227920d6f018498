import type { SubgraphModule } from '../shared/build-subgraph.js';
import { ChainResolver } from './resolvers.js';
import { ChainUtilityResolver } from './utility-resolvers.js';

export const chainSubgraph: SubgraphModule = { name: 'chain', resolvers: [ChainUtilityResolver, ChainResolver] };
