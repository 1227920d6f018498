import { parseAbi, toEventSelector } from 'viem';

/** The ENS registry's ownership event (ENSRegistry of @ensdomains/ens). */
export const registryEventsAbi = parseAbi(['event Transfer(bytes32 indexed node, address owner)']);

/** Resolver record events: one declaration, shared with the record lists of src/sources/ens/resolver-log-keys.ts. */
export { resolverEventsAbi } from '../../sources/ens/ens-contracts.js';

export const resolverReadAbi = parseAbi(['function text(bytes32 node, string key) view returns (string)']);

/** ERC-20 and ERC-721 share this topic: ERC-20 logs have 3 topics (value in data), ERC-721 logs 4 (tokenId). */
export const TRANSFER_TOPIC = toEventSelector(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

export const erc1155Abi = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);
export const TRANSFER_SINGLE_TOPIC = toEventSelector(erc1155Abi[0]);
export const TRANSFER_BATCH_TOPIC = toEventSelector(erc1155Abi[1]);
