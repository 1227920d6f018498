import type { SubgraphModule } from '../shared/build-subgraph.js';
import { WalletFieldResolver, walletReferenceResolvers, WalletResolver } from './resolvers.js';
import { Wallet } from './types.js';

export const walletSubgraph: SubgraphModule = {
  name: 'wallet',
  resolvers: [WalletResolver, WalletFieldResolver],
  orphanedTypes: [Wallet],
  referenceResolvers: walletReferenceResolvers,
};
