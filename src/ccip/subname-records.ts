import { getAddress, isAddress, namehash } from 'viem';
import { normalize } from 'viem/ens';
import type { Subname, SubnameRecordSet, SubnameRecordsInput } from '../../subgraphs/ccip/types.js';
import { invalidParameter } from '../errors/api-error.js';
import { encodeContentHash, InvalidContentHashError } from '../sources/ens/content-hash.js';
import type { SubnameRecord, SubnameRecords } from '../store/store.js';
import { ETH_COIN_TYPE } from './record-result.js';

/** A subname label is one DNS label: at most 63 bytes. */
export const MAX_LABEL_BYTES = 63;
export const MAX_TEXT_RECORDS = 32;
export const MAX_TEXT_KEY_LENGTH = 256;
export const MAX_TEXT_VALUE_LENGTH = 4096;
export const MAX_ADDRESS_RECORDS = 16;
/** ENSIP-11: an EVM chain's coin type is 0x80000000 | chainId. */
const MIN_EVM_COIN_TYPE = 0x8000_0000n;
const MAX_EVM_COIN_TYPE = 0xffff_ffffn;

/**
 * A subname label in ENSIP-15 normal form, or INVALID_PARAMETER: one label (no dot), 1 to 63 bytes, already
 * normalised (a label is stored and served exactly as registered).
 * @example subnameLabel('dave') // 'dave'
 */
export function subnameLabel(raw: string): string {
  const bytes = new TextEncoder().encode(raw).length;
  if (bytes === 0 || bytes > MAX_LABEL_BYTES) throw invalidParameter(`label must be 1 to ${MAX_LABEL_BYTES} bytes`);
  if (raw.includes('.')) throw invalidParameter('label must be a single label, without "."');
  let normalised: string;
  try {
    normalised = normalize(raw);
  } catch (err) {
    throw invalidParameter(`label is not a valid ENS label (ENSIP-15): ${(err as Error).message.split('\n')[0]}`);
  }
  if (normalised !== raw) throw invalidParameter(`label must be in normalised form: "${normalised}"`);
  return raw;
}

/** A coin type the gateway serves: 60 (ETH) or an ENSIP-11 EVM chain; their addresses are 20 bytes. */
function coinType(raw: string): string {
  if (!/^\d{1,10}$/.test(raw)) throw invalidParameter(`coin type "${raw.slice(0, 20)}" must be a decimal number`);
  const value = BigInt(raw);
  if (value.toString() !== ETH_COIN_TYPE && (value < MIN_EVM_COIN_TYPE || value > MAX_EVM_COIN_TYPE)) {
    throw invalidParameter(
      `coin type ${raw} is not served: use 60 (ETH) or an ENSIP-11 EVM coin type (0x80000000 | chainId)`,
    );
  }
  return value.toString();
}

/**
 * Checks the records of a registration and puts them in the store's form. Without any address the name resolves to
 * its owner (coin type 60).
 * @example subnameRecords({ texts: [{ key: 'url', value: 'https://dave.example' }] }, owner)
 */
export function subnameRecords(input: SubnameRecordsInput, owner: `0x${string}`): SubnameRecords {
  const addressList = input.addresses ?? [];
  const textList = input.texts ?? [];
  if (addressList.length > MAX_ADDRESS_RECORDS) throw invalidParameter(`at most ${MAX_ADDRESS_RECORDS} addresses`);
  if (textList.length > MAX_TEXT_RECORDS) throw invalidParameter(`at most ${MAX_TEXT_RECORDS} text records`);
  // Maps, then own properties: a key such as `__proto__` is a record like any other.
  const addresses = new Map<string, string>();
  for (const entry of addressList) {
    const type = coinType(entry.coinType);
    if (!isAddress(entry.address, { strict: false }))
      throw invalidParameter(`address for coin type ${type} must be a 0x-prefixed 20-byte hex address`);
    if (addresses.has(type)) throw invalidParameter(`coin type ${type} is given twice`);
    addresses.set(type, getAddress(entry.address));
  }
  if (addressList.length === 0) addresses.set(ETH_COIN_TYPE, getAddress(owner));
  const texts = new Map<string, string>();
  for (const { key, value } of textList) {
    if (key.length === 0 || key.length > MAX_TEXT_KEY_LENGTH)
      throw invalidParameter(`text record keys must be 1 to ${MAX_TEXT_KEY_LENGTH} characters`);
    if (value.length > MAX_TEXT_VALUE_LENGTH)
      throw invalidParameter(`text record "${key.slice(0, 40)}" is longer than ${MAX_TEXT_VALUE_LENGTH} characters`);
    if (texts.has(key)) throw invalidParameter(`text record "${key.slice(0, 40)}" is given twice`);
    texts.set(key, value);
  }
  const records: SubnameRecords = { addresses: Object.fromEntries(addresses), texts: Object.fromEntries(texts) };
  if (input.contenthash) {
    try {
      encodeContentHash(input.contenthash);
    } catch (err) {
      if (err instanceof InvalidContentHashError) throw invalidParameter(`contenthash: ${err.message}`);
      throw err;
    }
    records.contenthash = input.contenthash;
  }
  return records;
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
