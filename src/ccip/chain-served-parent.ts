import { type Address, getAddress, isAddress } from 'viem';
import { ETH_COIN_TYPE } from '../arguments/subname-arguments.js';
import type { EnsReader } from '../sources/ens/ens-reader.js';
import { BASE_COIN_TYPE, reverseNamespaceLabel } from '../sources/ens/reverse-names.js';
import type { AskedAt } from '../sources/rpc/asked-at.js';
import type { ServedRecords } from './record-result.js';
import type { RecordQuery } from './resolve-request.js';

/** A parent whose names the gateway answers from a chain's ENS records, not from subnames registered here. */
export interface ChainServedParent {
  parent: string;
  /**
   * The record `query` asks of `name`, read on that chain as of the request's arrival (`askedAt`); null when the name
   * has none (unregistered, expired).
   */
  records(name: string, query: RecordQuery, askedAt: AskedAt | undefined): Promise<ServedRecords | null>;
}

const NONE: Record<string, string> = {};

/**
 * Names under `parent` answered from what `reader` reads for them: on the embedded default, `base.eth` on the
 * embedded Ethereum chain resolves through this gateway to the Base chain's names, as Basenames' own L1 resolver
 * resolves them on mainnet, so ENS clients on chain 1 find them as REST does. Addresses of every coin type are
 * answered (Base's own, 0x80002105, is what an ENSIP-19 forward check of a Base primary name asks).
 * @example createCcipServices({ config, store, chainParents: [ensReaderParent('base.eth', sources.ens.reader)] })
 */
export function ensReaderParent(parent: string, reader: EnsReader): ChainServedParent {
  return {
    parent,
    async records(name, query, askedAt): Promise<ServedRecords | null> {
      switch (query.kind) {
        case 'addr': {
          const [address] = await reader.addresses([name], askedAt);
          return address ? { addresses: { [ETH_COIN_TYPE]: address }, texts: NONE } : null;
        }
        case 'addrByCoin': {
          const coinType = Number(query.coinType);
          if (!Number.isSafeInteger(coinType)) return null;
          const [profile] = await reader.profiles([name], { textKeys: [], coinTypes: [coinType] }, askedAt);
          const address = profile?.coinAddresses[String(coinType)];
          return address ? { addresses: { [String(coinType)]: address }, texts: NONE } : null;
        }
        case 'text': {
          const [value] = await reader.texts([name], query.key, askedAt);
          return value === null || value === undefined ? null : { addresses: NONE, texts: { [query.key]: value } };
        }
        case 'contenthash': {
          const [profile] = await reader.profiles([name], undefined, askedAt);
          return profile?.contentHash ? { addresses: NONE, texts: NONE, contenthash: profile.contentHash } : null;
        }
        case 'name':
          return null;
      }
    },
  };
}

/** The reverse namespace of Base primary names (ENSIP-19): `80002105.reverse`. */
export const BASE_REVERSE_PARENT = `${reverseNamespaceLabel(BASE_COIN_TYPE)}.reverse`;

/**
 * `<address>.80002105.reverse` answered with the address's Base primary name, read on the Base chain (Basenames'
 * reverse record, forward-checked there): on the embedded default the Ethereum chain's `80002105.reverse` resolves
 * through this gateway, so viem's `getEnsName({ address, coinType: 0x80002105 })` on chain 1 reads the Base primary
 * name as ENSIP-19's L2 reverse resolvers serve it on mainnet.
 * @example createCcipServices({ config, store, chainParents: [basePrimaryNameParent(sources.ens.reader)] })
 */
export function basePrimaryNameParent(reader: EnsReader): ChainServedParent {
  return {
    parent: BASE_REVERSE_PARENT,
    async records(name, query, askedAt): Promise<ServedRecords | null> {
      const label = name.slice(0, -(BASE_REVERSE_PARENT.length + 1));
      const address = `0x${label}`;
      if (query.kind !== 'name' || label.includes('.') || !isAddress(address, { strict: false })) return null;
      const [primary] = await reader.basePrimaryNames([getAddress(address) as Address], askedAt);
      return primary ? { addresses: NONE, texts: NONE, name: primary } : null;
    },
  };
}
