import { ETH_COIN_TYPE } from '../arguments/subname-arguments.js';
import type { EnsReader } from '../sources/ens/ens-reader.js';
import type { SubnameRecords } from '../store/store.js';
import type { RecordQuery } from './resolve-request.js';

/** A parent whose names the gateway answers from a chain's ENS records, not from subnames registered here. */
export interface ChainServedParent {
  parent: string;
  /** The record `query` asks of `name`, read on that chain; null when the name has none (unregistered, expired). */
  records(name: string, query: RecordQuery): Promise<SubnameRecords | null>;
}

/**
 * Names under `parent` answered from what `reader` reads for them: on the embedded default, `base.eth` on the
 * embedded Ethereum chain resolves through this gateway to the Base chain's names, as Basenames' own L1 resolver
 * resolves them on mainnet, so ENS clients on chain 1 find them as REST does.
 * @example createCcipServices({ config, store, chainParents: [ensReaderParent('base.eth', sources.ens.reader)] })
 */
export function ensReaderParent(parent: string, reader: EnsReader): ChainServedParent {
  return {
    parent,
    async records(name, query): Promise<SubnameRecords | null> {
      const none: Record<string, string> = {};
      switch (query.kind) {
        case 'addr':
        case 'addrByCoin': {
          // The reader reads coin type 60, the address REST answers; other coin types answer unset.
          if (query.kind === 'addrByCoin' && query.coinType.toString() !== ETH_COIN_TYPE) return null;
          const [address] = await reader.addresses([name]);
          return address ? { addresses: { [ETH_COIN_TYPE]: address }, texts: none } : null;
        }
        case 'text': {
          const [value] = await reader.texts([name], query.key);
          return value === null || value === undefined ? null : { addresses: none, texts: { [query.key]: value } };
        }
        case 'contenthash': {
          const [profile] = await reader.profiles([name]);
          return profile?.contentHash ? { addresses: none, texts: none, contenthash: profile.contentHash } : null;
        }
      }
    },
  };
}
