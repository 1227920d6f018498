import type { SubgraphModule } from '../shared/build-subgraph.js';
import { WalletLiveResolver } from './live-resolver.js';
import { WalletFieldResolver, WalletResolver, walletReferenceResolvers } from './resolvers.js';
import { Wallet } from './types.js';

export const walletSubgraph: SubgraphModule = {
  name: 'wallet',
  resolvers: [WalletResolver, WalletFieldResolver, WalletLiveResolver],
  orphanedTypes: [Wallet],
  referenceResolvers: walletReferenceResolvers,
};
