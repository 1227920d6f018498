import { type Address, encodeAbiParameters, type Hex, zeroAddress } from 'viem';
import { ETH_COIN_TYPE } from '../arguments/subname-arguments.js';
import { coinAddressBytes } from '../sources/ens/coin-addresses.js';
import { encodeContentHash } from '../sources/ens/content-hash.js';
import type { SubnameRecords } from '../store/store.js';
import type { RecordQuery } from './resolve-request.js';

/** What the gateway answers from: a subname's records, or a chain-served name's (a reverse name's `name` too). */
export type ServedRecords = SubnameRecords & { name?: string };

/** Own entries only: a text key such as `constructor` must not find Object.prototype's. */
const own = (map: Record<string, string> | undefined, key: string): string | undefined =>
  map && Object.hasOwn(map, key) ? map[key] : undefined;

/**
 * The ABI-encoded answer a PublicResolver would give for `query`, from a subname's records; an unset record answers
 * as a resolver does: the zero address, empty bytes, the empty string.
 * @example recordResult({ kind: 'addr' }, { addresses: { '60': '0xf39F…' }, texts: {} }) // '0x000…f39fd6e5…'
 */
export function recordResult(query: RecordQuery, records: ServedRecords | null): Hex {
  switch (query.kind) {
    case 'addr':
      return encodeAbiParameters(
        [{ type: 'address' }],
        [(own(records?.addresses, ETH_COIN_TYPE) as Address | undefined) ?? zeroAddress],
      );
    case 'addrByCoin': {
      // ENSIP-9 / ENSIP-11: the address as the coin's bytes (an EVM chain's 20 bytes, BTC's script, SOL's key).
      const address = own(records?.addresses, query.coinType.toString());
      const bytes = address ? coinAddressBytes(Number(query.coinType), address) : '0x';
      return encodeAbiParameters([{ type: 'bytes' }], [bytes]);
    }
    case 'text':
      return encodeAbiParameters([{ type: 'string' }], [own(records?.texts, query.key) ?? '']);
    case 'contenthash':
      return encodeAbiParameters(
        [{ type: 'bytes' }],
        [records?.contenthash ? encodeContentHash(records.contenthash) : '0x'],
      );
    case 'name':
      return encodeAbiParameters([{ type: 'string' }], [records?.name ?? '']);
  }
}
