import type { SubgraphModule } from '../shared/build-subgraph.js';
import { CcipResolver } from './resolvers.js';

export const ccipSubgraph: SubgraphModule = { name: 'ccip', resolvers: [CcipResolver] };
