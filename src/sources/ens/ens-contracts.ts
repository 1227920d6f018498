import { type Address, parseAbi } from 'viem';
import { mainnet } from 'viem/chains';

/** Where the ENS contracts the service reads are, and which batch gateways the Universal Resolver is given. */
export interface EnsContracts {
  universalResolver: Address;
  registry: Address;
  /** The .eth registrar (ERC-721, tokenId = labelhash): registrant and expiry of second-level names. */
  ethRegistrar: Address;
  /**
   * Batch gateways for CCIP-Read (ENSIP-21). Live: ENS's public batch gateway, so the service itself only ever calls
   * that one fixed host, never a gateway URL a name's resolver chose. Local: viem's in-process batch gateway, for the
   * resolvers of the embedded chain (ours, on loopback).
   */
  gateways: string[];
}

/** viem's marker for "run the batch gateway in the client". */
export const LOCAL_BATCH_GATEWAY = 'x-batch-gateway:true';

/** ENS on Ethereum mainnet. */
export const MAINNET_ENS_CONTRACTS: EnsContracts = {
  universalResolver: mainnet.contracts.ensUniversalResolver.address,
  registry: '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e',
  ethRegistrar: '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85',
  gateways: ['https://ccip-v3.ens.xyz'],
};

export const ensRegistryAbi = parseAbi([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
]);

export const ethRegistrarAbi = parseAbi([
  'function ownerOf(uint256 id) view returns (address)',
  'function nameExpires(uint256 id) view returns (uint256)',
  'event NameRegistered(uint256 indexed id, string label, address indexed owner, uint256 expires)',
  'event NameRenewed(uint256 indexed id, uint256 expires)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);

export const resolverProfileAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);

/**
 * Resolver record events: text, address per coin type, content hash. `TextChanged` has two forms (two topics): the
 * embedded chain's PublicResolver (@ensdomains/resolver) emits the key only, ENS's current PublicResolver (mainnet's)
 * the key and the value.
 */
export const resolverEventsAbi = parseAbi([
  'event TextChanged(bytes32 indexed node, string indexed indexedKey, string key)',
  'event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)',
  'event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)',
  'event ContenthashChanged(bytes32 indexed node, bytes hash)',
]);

/** ENS's current PublicResolver's `clearRecords`: every record of the name is dropped (a new record version). */
export const resolverVersionEventAbi = parseAbi(['event VersionChanged(bytes32 indexed node, uint64 newVersion)']);

/** ENSIP-9: an address for any coin type, as the bytes that coin's chain uses. */
export const multicoinAddrAbi = parseAbi(['function addr(bytes32 node, uint256 coinType) view returns (bytes)']);

/** ENSIP-3 reverse resolution: the name record of a reverse node. */
export const nameResolverAbi = parseAbi(['function name(bytes32 node) view returns (string)']);

/** The Universal Resolver's resolve entry and errors, as ENS's and ours (contracts/UniversalResolver.sol) declare them. */
export const universalResolverAbi = parseAbi([
  'function resolveWithGateways(bytes name, bytes data, string[] gateways) view returns (bytes, address)',
  'error DNSDecodingFailed(bytes dns)',
  'error DNSEncodingFailed(string ens)',
  'error EmptyAddress()',
  'error HttpError(uint16 status, string message)',
  'error InvalidBatchGatewayResponse()',
  'error ResolverError(bytes errorData)',
  'error ResolverNotContract(bytes name, address resolver)',
  'error ResolverNotFound(bytes name)',
  'error ReverseAddressMismatch(string primary, bytes primaryAddress)',
  'error UnsupportedResolverProfile(bytes4 selector)',
]);
