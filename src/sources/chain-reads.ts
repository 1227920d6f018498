import type { Address, Hex } from 'viem';
import type { ChainKey } from '../config/chains.js';
import { serviceUnavailable } from '../errors/api-error.js';
import { type AddressKindReading, readAddressKinds } from './rpc/address-kinds.js';
import { type ChainClients, requireClient } from './rpc/chain-clients.js';
import {
  type NftTokenReading,
  readCode,
  readNftToken,
  readTokenContract,
  readWalletHoldings,
  type TokenContractInfo,
  type WalletHoldings,
} from './rpc/chain-token-reads.js';
import type { RpcSourceClients } from './rpc/rpc-source-clients.js';
import type { SourceClient } from './source-client.js';
import type { ChainTokenLists } from './wallet/token-lists.js';

/** Reads of wallets, tokens, NFTs and addresses, each ONE JSON-RPC call per chain, cached for a block (12 s). */
export interface ChainReads {
  readonly tokenLists: ChainTokenLists;
  holdings(chain: ChainKey, wallets: readonly Address[]): Promise<WalletHoldings[]>;
  tokenContract(chain: ChainKey, address: Address): Promise<TokenContractInfo | null>;
  nftToken(chain: ChainKey, contract: Address, tokenId: bigint): Promise<NftTokenReading | null>;
  addressKinds(chain: ChainKey, addresses: readonly Address[]): Promise<AddressKindReading[]>;
  code(chain: ChainKey, address: Address): Promise<Hex>;
}

/**
 * Chain reads through each chain's `rpc:<chain>` source client (cache, breaker, health): an RPC failure is a 503,
 * a chain with no RPC configured a 503 naming it.
 * @example await createChainReads({ chains, rpc, tokenLists }).holdings('ethereum', ['0x7099…'])
 */
export function createChainReads(p: {
  chains: ChainClients;
  rpc: RpcSourceClients;
  tokenLists: ChainTokenLists;
}): ChainReads {
  const on = <T>(
    chain: ChainKey,
    key: string,
    read: (client: ReturnType<typeof requireClient>) => Promise<T>,
  ): Promise<T> => {
    const source: SourceClient | undefined = p.rpc[chain];
    if (!source) throw serviceUnavailable(`no RPC configured for ${chain}`);
    const client = requireClient(p.chains, chain);
    return source.load(key, () => read(client));
  };
  const lower = (a: string) => a.toLowerCase();
  return {
    tokenLists: p.tokenLists,
    holdings: (chain, wallets) =>
      on(chain, `holdings:${wallets.map(lower).join(',')}`, (c) =>
        readWalletHoldings(c, wallets, p.tokenLists[chain].tokens),
      ),
    tokenContract: (chain, address) => on(chain, `erc20:${lower(address)}`, (c) => readTokenContract(c, address)),
    nftToken: (chain, contract, tokenId) =>
      on(chain, `erc721:${lower(contract)}:${tokenId}`, (c) => readNftToken(c, contract, tokenId)),
    addressKinds: (chain, addresses) =>
      on(chain, `kinds:${addresses.map(lower).join(',')}`, (c) => readAddressKinds(c, addresses)),
    code: (chain, address) => on(chain, `code:${lower(address)}`, (c) => readCode(c, address)),
  };
}
