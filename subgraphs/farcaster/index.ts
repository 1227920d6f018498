import type { SubgraphModule } from '../shared/build-subgraph.js';
import {
  FarcasterCastResolver,
  FarcasterUserResolver,
  FarcasterWalletResolver,
  farcasterReferenceResolvers,
} from './resolvers.js';
import { Wallet } from './types.js';

export const farcasterSubgraph: SubgraphModule = {
  name: 'farcaster',
  resolvers: [FarcasterUserResolver, FarcasterCastResolver, FarcasterWalletResolver],
  orphanedTypes: [Wallet],
  referenceResolvers: farcasterReferenceResolvers,
};
