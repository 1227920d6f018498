import 'reflect-metadata';
import { z } from 'zod';
import { MAX_BATCH_ADDRESSES, validationEntry } from '../../src/arguments/address-batch.js';
import { commaSeparated } from '../../src/arguments/argument-list.js';
import { chainOrDefault } from '../../src/arguments/chain.js';
import { evmAddress } from '../../src/arguments/evm-address.js';
import { tokenId } from '../../src/arguments/token-id.js';
import { ChainUtilityResolver } from '../../subgraphs/chain/utility-resolvers.js';
import { rootField } from '../root-field.js';
import type { RouteRow } from '../route-row.js';

/** Comma-separated entries, blanks dropped, 1 to MAX_BATCH_ADDRESSES of them. */
const addressList = (entry: z.ZodType<unknown, string>, description: string) =>
  commaSeparated(entry, { max: MAX_BATCH_ADDRESSES, noun: 'addresses' })
    .describe(description)
    .meta({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8,0xcA11bde05977b3631167028862bE2a173976CA11' });

const chain = chainOrDefault;

/**
 * Examples that answer on the embedded default (docs/embedded-default.md#demo-data): its demo USDC (an ERC-20 whose
 * verified ABI
 * the replay holds) and its Demo Collectible (an ERC-721 whose token #1 has on-chain metadata).
 */
const demoToken = evmAddress.meta({ example: '0xAB3784D65642a7F73bBF90e1A8aB5293Cfa6B38f' });
const demoCollectible = evmAddress.meta({ example: '0x7baA3B073d21Ee6389FED20A92697C9cb51C7EC3' });

/**
 * docs/api-contract.md#market-wallet-and-utilities and the utilities documented in detail: NFT, token, ABI and address
 * tools.
 */
export const chainUtilityRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'getNftMetadata',
    tool: 'get_nft_metadata',
    method: 'GET',
    path: '/api/nft/{contract}/{tokenId}',
    tag: 'NFT',
    summary: 'An ERC-721 token: owner, collection and metadata, read on chain',
    description:
      'ownerOf, tokenURI, name and symbol in one multicall. A `data:application/json` token URI is decoded into `metadata`; an http(s), ipfs or ar URI is returned as `tokenUri` and never fetched by the service. 404 when the token does not exist (or the contract is not an ERC-721).',
    tier: 'medium',
    params: { path: z.object({ contract: demoCollectible, tokenId }), query: z.object({ chain }) },
    field: rootField(ChainUtilityResolver.prototype.nftToken),
    notFound: 'no ERC-721 token with this id at this contract',
    errors: [404],
    maxAge: 12,
  },
  {
    kind: 'operation',
    id: 'getTokenInfo',
    tool: 'get_token_info',
    method: 'GET',
    path: '/api/token/{address}',
    tag: 'Chain',
    summary: 'ERC-20 name, symbol, decimals and total supply (one multicall)',
    tier: 'medium',
    params: { path: z.object({ address: demoToken }), query: z.object({ chain }) },
    field: rootField(ChainUtilityResolver.prototype.tokenInfo),
    notFound: 'no ERC-20 token at this address',
    errors: [404],
    maxAge: 12,
  },
  {
    kind: 'operation',
    id: 'getContractAbi',
    tool: 'get_contract_abi',
    method: 'GET',
    path: '/api/abi/{address}',
    tag: 'Utilities',
    summary: 'Contract ABI from the explorer (verified source), else from Sourcify',
    description:
      "`verified` is true for an explorer verification or a Sourcify exact match, false for a Sourcify match whose metadata differs. Sourcify also answers while the explorer is down. 404 when neither has the contract's source.",
    tier: 'medium',
    price: '0.02',
    params: { path: z.object({ address: demoToken }), query: z.object({ chain }) },
    field: rootField(ChainUtilityResolver.prototype.contractAbi),
    notFound: 'no verified source for this contract',
    errors: [404],
    maxAge: 600,
  },
  {
    kind: 'operation',
    id: 'getAddressAge',
    tool: 'get_address_age',
    method: 'GET',
    path: '/api/address/age/{address}',
    tag: 'Utilities',
    summary: "Time of an address's first normal transaction (explorer)",
    tier: 'medium',
    price: '0.01',
    params: { path: z.object({ address: evmAddress }), query: z.object({ chain }) },
    field: rootField(ChainUtilityResolver.prototype.addressAge),
    notFound: 'no transactions for this address',
    errors: [404],
    maxAge: 3600,
  },
  {
    kind: 'operation',
    id: 'getAddressTypesBatch',
    tool: 'get_address_types_batch',
    method: 'GET',
    path: '/api/address/batch/type',
    tag: 'Utilities',
    summary: `EOA or contract for up to ${MAX_BATCH_ADDRESSES} addresses, in one eth_call`,
    description:
      'Every address is read in ONE `eth_call` (code size and code prefix of each); `delegated` is an EOA whose code is an EIP-7702 delegation. A repeated address is answered once.',
    tier: 'heavy',
    price: '0.02',
    params: {
      query: z.object({
        addresses: addressList(evmAddress, `comma-separated 0x addresses, 1 to ${MAX_BATCH_ADDRESSES}`),
        chain,
      }),
    },
    field: rootField(ChainUtilityResolver.prototype.addressTypes),
    maxAge: 12,
  },
  {
    kind: 'operation',
    id: 'validateAddressesBatch',
    tool: 'validate_addresses_batch',
    method: 'GET',
    path: '/api/address/batch/validate',
    tag: 'Utilities',
    summary: `Syntax and EIP-55 checksum of up to ${MAX_BATCH_ADDRESSES} addresses (no upstream)`,
    description:
      'Each entry is judged on its own: malformed entries are answered `valid: false` with a reason, not refused.',
    tier: 'light',
    price: '0.02',
    params: {
      query: z.object({
        addresses: addressList(validationEntry, `comma-separated entries, 1 to ${MAX_BATCH_ADDRESSES}`),
      }),
    },
    field: rootField(ChainUtilityResolver.prototype.addressValidation),
    maxAge: 86_400,
  },
  {
    kind: 'operation',
    id: 'getAddressChecksum',
    tool: 'get_address_checksum',
    method: 'GET',
    path: '/api/address/checksum/{address}',
    tag: 'Utilities',
    summary: 'EIP-55 checksummed form of an address',
    tier: 'light',
    price: '0.005',
    params: { path: z.object({ address: evmAddress }) },
    field: rootField(ChainUtilityResolver.prototype.addressChecksum),
    maxAge: 86_400,
  },
  {
    kind: 'operation',
    id: 'getAddressCode',
    tool: 'get_address_code',
    method: 'GET',
    path: '/api/address/code/{address}',
    tag: 'Utilities',
    summary: 'Bytecode deployed at an address (0x for an account without code)',
    tier: 'medium',
    price: '0.01',
    params: { path: z.object({ address: evmAddress }), query: z.object({ chain }) },
    field: rootField(ChainUtilityResolver.prototype.addressCode),
    maxAge: 12,
  },
];
