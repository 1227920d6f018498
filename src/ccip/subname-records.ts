import { getAddress, namehash } from 'viem';
import type { Subname, SubnameRecordSet, SubnameRecordsInput } from '../../subgraphs/ccip/types.js';
import { invalidArgument } from '../arguments/parse-argument.js';
import { ETH_COIN_TYPE, type SubnameRecordsArgument } from '../arguments/subname-arguments.js';
import type { SubnameRecord, SubnameRecords } from '../store/store.js';

/** `key` twice in one list: a map (REST's form) cannot say it, so the refusal names the key as the map would. */
function entryListAsMap(list: readonly { key: string; value: string }[], at: string): Record<string, string> {
  const map = new Map<string, string>();
  for (const { key, value } of list) {
    // A JSON body cannot carry `__proto__` (REST refuses it while parsing), nor can the map this list becomes.
    if (key === '__proto__') throw invalidArgument(`${at}.${key}`, 'is not a key a record can have');
    if (map.has(key)) throw invalidArgument(`${at}.${key}`, 'is given twice');
    map.set(key, value);
  }
  return Object.fromEntries(map);
}

/**
 * The registerSubname records (lists of entries) as the maps REST callers send, to parse with
 * `subnameRecordsArgument` like the REST body; GraphQL null is absent.
 * @example recordsAsMaps({ texts: [{ key: 'url', value: 'https://dave.example' }] }) // { texts: { url: '…' } }
 */
export function recordsAsMaps(input: SubnameRecordsInput): Record<string, unknown> {
  return {
    ...(input.addresses
      ? {
          addresses: entryListAsMap(
            input.addresses.map(({ coinType, address }) => ({ key: coinType, value: address })),
            'records.addresses',
          ),
        }
      : {}),
    ...(input.texts ? { texts: entryListAsMap(input.texts, 'records.texts') } : {}),
    ...(input.contenthash != null ? { contenthash: input.contenthash } : {}),
  };
}

/**
 * Parsed records in the store's form. Without any address the name resolves to its owner (coin type 60).
 * @example subnameRecords({ texts: { url: 'https://dave.example' } }, owner) // { addresses: { '60': owner }, texts: … }
 */
export function subnameRecords(records: SubnameRecordsArgument, owner: `0x${string}`): SubnameRecords {
  const addresses = records.addresses ?? {};
  return {
    addresses: Object.keys(addresses).length > 0 ? addresses : { [ETH_COIN_TYPE]: getAddress(owner) },
    texts: records.texts ?? {},
    ...(records.contenthash ? { contenthash: records.contenthash } : {}),
  };
}

/** A stored subname as the API shows it. */
export function subnameShape(record: SubnameRecord): Subname {
  const name = `${record.label}.${record.parent}`;
  const records: SubnameRecordSet = {
    addresses: Object.entries(record.records.addresses).map(([type, address]) => ({ coinType: type, address })),
    texts: Object.entries(record.records.texts).map(([key, value]) => ({ key, value })),
    contenthash: record.records.contenthash ?? null,
  };
  return {
    name,
    parent: record.parent,
    label: record.label,
    node: namehash(name),
    owner: getAddress(record.owner),
    records,
    createdAt: new Date(record.createdAt).toISOString(),
  };
}
