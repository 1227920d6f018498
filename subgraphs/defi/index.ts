import type { SubgraphModule } from '../shared/build-subgraph.js';
import { DefiEventsResolver } from './event-resolvers.js';
import { DefiResolver } from './resolvers.js';

export const defiSubgraph: SubgraphModule = { name: 'defi', resolvers: [DefiEventsResolver, DefiResolver] };
