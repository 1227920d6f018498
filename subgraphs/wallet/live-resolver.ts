import { Arg, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { LiveEventFields, liveEvents } from '../shared/live-field.js';

@ObjectType({ description: 'A transfer of a watched address: wallet.transfer (ETH, ERC-20) or wallet.nft_transfer' })
export class WalletEvent extends LiveEventFields {}

@Resolver()
export class WalletLiveResolver {
  @Subscription(() => WalletEvent, {
    description:
      'ETH, ERC-20 and NFT transfers from or to the given addresses as they are mined; the filters of a wallet.* webhook',
    subscribe: liveEvents('wallet', (a) => ({ addresses: a.addresses, events: a.events as string[] })),
  })
  walletTransfers(
    @Root() event: WalletEvent,
    @Arg('addresses', () => [String], { description: 'watched addresses, 1 to 100' }) _addresses: string[],
    @Arg('events', () => [String], { nullable: true, description: 'wallet.transfer, wallet.nft_transfer' })
    _events?: string[] | null,
  ): WalletEvent {
    return event;
  }
}
