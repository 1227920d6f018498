import type { SubgraphModule } from '../shared/build-subgraph.js';
import { AccountResolver } from './resolvers.js';

export const accountSubgraph: SubgraphModule = { name: 'account', resolvers: [AccountResolver] };
