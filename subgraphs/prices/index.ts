import type { SubgraphModule } from '../shared/build-subgraph.js';
import { PricesLiveResolver } from './live-resolver.js';
import { PricesResolver } from './resolvers.js';

export const pricesSubgraph: SubgraphModule = { name: 'prices', resolvers: [PricesResolver, PricesLiveResolver] };
