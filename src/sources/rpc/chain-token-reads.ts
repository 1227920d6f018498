import { type Address, erc20Abi, erc721Abi, getAddress, type Hex, parseAbi } from 'viem';
import type { TokenListEntry } from '../wallet/token-lists.js';
import type { ChainRpcClient } from './chain-clients.js';

const multicall3Abi = parseAbi([
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
]);

/** One wallet's balances at one block: the native coin in wei, each listed token in its smallest unit (null = unreadable). */
export interface WalletHoldings {
  address: Address;
  blockNumber: bigint;
  nativeWei: bigint;
  tokens: { token: TokenListEntry; raw: bigint | null }[];
}

function multicallAddress(client: ChainRpcClient): Address {
  const address = client.chain.contracts?.multicall3?.address;
  if (!address) throw new Error(`chain ${client.chain.id} has no Multicall3`);
  return address;
}

/**
 * Native and ERC-20 balances of many wallets in ONE `eth_call` (Multicall3 aggregate3): the block number, then per
 * wallet `getEthBalance` and `balanceOf` of every listed token. A token whose call fails reads as null; the native
 * balance and block number must succeed.
 * @example const [h] = await readWalletHoldings(client, ['0x7099…'], tokens) // h.nativeWei, h.tokens[0].raw
 */
export async function readWalletHoldings(
  client: ChainRpcClient,
  wallets: readonly Address[],
  tokens: readonly TokenListEntry[],
): Promise<WalletHoldings[]> {
  const multicall3 = multicallAddress(client);
  const perWallet = 1 + tokens.length;
  const contracts = [
    { address: multicall3, abi: multicall3Abi, functionName: 'getBlockNumber' } as const,
    ...wallets.flatMap((wallet) => [
      { address: multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [wallet] } as const,
      ...tokens.map((t) => ({ address: t.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }) as const),
    ]),
  ];
  const results = await client.multicall({ contracts, allowFailure: true, multicallAddress: multicall3 });
  const block = results[0]!;
  if (block.status !== 'success') throw new Error('Multicall3 getBlockNumber failed');
  return wallets.map((address, w) => {
    const base = 1 + w * perWallet;
    const native = results[base]!;
    if (native.status !== 'success') throw new Error('Multicall3 getEthBalance failed');
    return {
      address,
      blockNumber: block.result as bigint,
      nativeWei: native.result as bigint,
      tokens: tokens.map((token, t) => {
        const r = results[base + 1 + t]!;
        return { token, raw: r.status === 'success' ? (r.result as bigint) : null };
      }),
    };
  });
}

/** An ERC-20's metadata and supply; name is null for tokens that do not implement it as a string. */
export interface TokenContractInfo {
  address: Address;
  name: string | null;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
}

/**
 * name, symbol, decimals and totalSupply of a contract in ONE `eth_call`; null when it does not answer as an ERC-20
 * (no code, or symbol, decimals or totalSupply missing).
 * @example await readTokenContract(client, '0xA0b8…') // { symbol: 'USDC', decimals: 6, … }
 */
export async function readTokenContract(client: ChainRpcClient, address: Address): Promise<TokenContractInfo | null> {
  const [name, symbol, decimals, totalSupply] = await client.multicall({
    contracts: [
      { address, abi: erc20Abi, functionName: 'name' },
      { address, abi: erc20Abi, functionName: 'symbol' },
      { address, abi: erc20Abi, functionName: 'decimals' },
      { address, abi: erc20Abi, functionName: 'totalSupply' },
    ],
    allowFailure: true,
    multicallAddress: multicallAddress(client),
  });
  if (symbol.status !== 'success' || decimals.status !== 'success' || totalSupply.status !== 'success') return null;
  return {
    address: getAddress(address),
    name: name.status === 'success' ? name.result : null,
    symbol: symbol.result,
    decimals: decimals.result,
    totalSupply: totalSupply.result,
  };
}

/** What an ERC-721 contract says about one token. */
export interface NftTokenReading {
  contract: Address;
  tokenId: bigint;
  owner: Address;
  tokenUri: string | null;
  collectionName: string | null;
  collectionSymbol: string | null;
}

/**
 * ownerOf, tokenURI, name and symbol of one ERC-721 token in ONE `eth_call`; null when ownerOf fails (no such token,
 * or not an ERC-721).
 * @example await readNftToken(client, '0x…', 1n) // { owner: '0x7099…', tokenUri: 'data:application/json;base64,…' }
 */
export async function readNftToken(
  client: ChainRpcClient,
  contract: Address,
  tokenId: bigint,
): Promise<NftTokenReading | null> {
  const [owner, uri, name, symbol] = await client.multicall({
    contracts: [
      { address: contract, abi: erc721Abi, functionName: 'ownerOf', args: [tokenId] },
      { address: contract, abi: erc721Abi, functionName: 'tokenURI', args: [tokenId] },
      { address: contract, abi: erc721Abi, functionName: 'name' },
      { address: contract, abi: erc721Abi, functionName: 'symbol' },
    ],
    allowFailure: true,
    multicallAddress: multicallAddress(client),
  });
  if (owner.status !== 'success') return null;
  return {
    contract: getAddress(contract),
    tokenId,
    owner: getAddress(owner.result),
    tokenUri: uri.status === 'success' ? uri.result : null,
    collectionName: name.status === 'success' ? name.result : null,
    collectionSymbol: symbol.status === 'success' ? symbol.result : null,
  };
}

/**
 * The deployed code at an address ('0x' for an account without code).
 * @example await readCode(client, '0xcA11bde05977b3631167028862bE2a173976CA11') // '0x6080…'
 */
export async function readCode(client: ChainRpcClient, address: Address): Promise<Hex> {
  return (await client.getCode({ address })) ?? '0x';
}
