import type { SubgraphModule } from '../shared/build-subgraph.js';
import { EnsLiveResolver } from './live-resolver.js';
import {
  EnsProfileRecordsResolver,
  EnsProfileWalletResolver,
  EnsResolver,
  EnsWalletResolver,
  ensReferenceResolvers,
} from './resolvers.js';

export const ensSubgraph: SubgraphModule = {
  name: 'ens',
  resolvers: [EnsResolver, EnsProfileWalletResolver, EnsProfileRecordsResolver, EnsWalletResolver, EnsLiveResolver],
  referenceResolvers: ensReferenceResolvers,
};
