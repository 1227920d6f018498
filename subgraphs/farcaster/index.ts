import type { SubgraphModule } from '../shared/build-subgraph.js';
import { FarcasterLiveResolver } from './live-resolver.js';
import {
  FarcasterCastResolver,
  FarcasterUserResolver,
  FarcasterWalletResolver,
  farcasterReferenceResolvers,
} from './resolvers.js';
import { Wallet } from './types.js';

export const farcasterSubgraph: SubgraphModule = {
  name: 'farcaster',
  resolvers: [FarcasterUserResolver, FarcasterCastResolver, FarcasterWalletResolver, FarcasterLiveResolver],
  orphanedTypes: [Wallet],
  referenceResolvers: farcasterReferenceResolvers,
};
