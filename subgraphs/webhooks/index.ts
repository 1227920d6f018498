import type { SubgraphModule } from '../shared/build-subgraph.js';
import { WebhooksResolver } from './resolvers.js';

export const webhooksSubgraph: SubgraphModule = { name: 'webhooks', resolvers: [WebhooksResolver] };
