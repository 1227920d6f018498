import 'reflect-metadata';
import { z } from 'zod';
import { chainOrDefault } from '../../src/arguments/chain.js';
import { evmAddress } from '../../src/arguments/evm-address.js';
import { walletLimit, walletWindowOffset } from '../../src/arguments/wallet-arguments.js';
import { MAX_NFT_WINDOW, MAX_TRANSACTION_WINDOW } from '../../src/arguments/wallet-limits.js';
import { WalletResolver } from '../../subgraphs/wallet/resolvers.js';
import { rootField } from '../root-field.js';
import type { OperationRow, RouteParams, RouteRow } from '../route-row.js';

const walletChain = chainOrDefault;

const addressPath = z.object({ address: evmAddress });

/** A paged list of an address's items: its chain and a page within the `maxWindow` items the upstream reaches. */
const pagedListParams = (maxWindow: number): RouteParams => ({
  path: addressPath,
  query: z.object({ chain: walletChain, limit: walletLimit, offset: walletWindowOffset(maxWindow) }),
});

const balanceRow = (id: string, tool: string, path: string, summary: string): OperationRow => ({
  kind: 'operation',
  id,
  tool,
  method: 'GET',
  path,
  tag: 'Wallet',
  summary,
  description:
    'The native coin and every listed ERC-20 the address holds (non-zero balances), read at one block in one multicall `eth_call`; USD values from CoinGecko (null when no price is known, e.g. while the price source is down). `balance` strings are exact decimals; `balanceUsd` is rounded to cents.',
  tier: 'medium',
  params: { path: addressPath, query: z.object({ chain: walletChain }) },
  field: rootField(WalletResolver.prototype.walletBalance),
  maxAge: 12,
});

/** docs/api-contract.md#market-wallet-and-utilities: wallet balances, transactions and NFTs. */
export const walletRoutes: RouteRow[] = [
  balanceRow(
    'getWalletBalance',
    'get_wallet_balance',
    '/api/wallet/{address}/balance',
    'Native and ERC-20 balances of an address, with USD values',
  ),
  balanceRow(
    'getWalletBalances',
    'get_wallet_balances',
    '/api/wallet/{address}/balances',
    'Same as /balance (the other spelling the contract documents)',
  ),
  {
    kind: 'operation',
    id: 'getWalletTransactions',
    tool: 'get_wallet_transactions',
    method: 'GET',
    path: '/api/wallet/{address}/transactions',
    tag: 'Wallet',
    summary: 'Normal transactions of an address, newest first (explorer)',
    description: `Offset pagination over the explorer's list (Etherscan \`account/txlist\`), which holds the ${MAX_TRANSACTION_WINDOW + 1} most recent transactions at most. The explorer reports no count: \`pagination.total\` is exact when \`hasMore\` is false and otherwise counts the transactions known so far (offset + limit + 1).`,
    tier: 'medium',
    params: pagedListParams(MAX_TRANSACTION_WINDOW),
    field: rootField(WalletResolver.prototype.walletTransactions),
    maxAge: 30,
  },
  {
    kind: 'operation',
    id: 'getWalletNfts',
    tool: 'get_wallet_nfts',
    method: 'GET',
    path: '/api/wallet/{address}/nfts',
    tag: 'Wallet',
    summary: 'NFTs an address holds (NFT API)',
    description: `Offset pagination over Alchemy's NFT API v3 (pages of 100 behind page keys, walked from the start, so offset + limit may reach ${MAX_NFT_WINDOW}). \`pagination.total\` is the API's count.`,
    tier: 'medium',
    params: pagedListParams(MAX_NFT_WINDOW),
    field: rootField(WalletResolver.prototype.walletNfts),
    maxAge: 60,
  },
];
