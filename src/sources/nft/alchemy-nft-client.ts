import { type Address, getAddress, isAddress } from 'viem';
import type { ChainKey } from '../../config/chains.js';
import { serviceUnavailable } from '../../errors/api-error.js';
import { requireServedChain } from '../explorer/explorer-chains.js';
import { HttpJsonSource } from '../http-json-source.js';
import { type HttpUpstreamParams, upstreamSourceClient } from '../http-upstream.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';

/** Alchemy's largest page of getNFTsForOwner. */
export const NFT_PAGE_SIZE = 100;

/** An NFT a wallet holds, as the service answers it. */
export interface OwnedNft {
  contract: Address;
  tokenId: string;
  /** ERC721 or ERC1155 (as Alchemy reports it; NO_SUPPORTED_NFT_STANDARD and the like pass through). */
  tokenType: string;
  name: string | null;
  description: string | null;
  /** A URL of the image (Alchemy's cached copy where it has one); never fetched by us. */
  image: string | null;
  tokenUri: string | null;
  collectionName: string | null;
  collectionSymbol: string | null;
  /** How many the wallet holds (always 1 for ERC-721). */
  balance: string;
}

/** One page of a wallet's NFTs and the key of the next one. */
export interface OwnedNftPage {
  nfts: OwnedNft[];
  totalCount: number;
  pageKey: string | null;
}

const NFT_FRESHNESS_MS = 60_000;

/** Alchemy's network names: each chain has its own host, `<network>.g.alchemy.com`. */
export const ALCHEMY_NETWORKS: Record<ChainKey, string> = {
  ethereum: 'eth-mainnet',
  base: 'base-mainnet',
  arbitrum: 'arb-mainnet',
  optimism: 'opt-mainnet',
  polygon: 'polygon-mainnet',
};

/**
 * The live base URL of Alchemy's NFT API v3 on a chain: the network is the host, the key a path segment.
 * @example alchemyNftBaseUrl('base', 'k') // 'https://base-mainnet.g.alchemy.com/nft/v3/k'
 */
export const alchemyNftBaseUrl = (chain: ChainKey, apiKey: string): string =>
  `https://${ALCHEMY_NETWORKS[chain]}.g.alchemy.com/nft/v3/${encodeURIComponent(apiKey)}`;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function mapOwnedNft(raw: unknown): OwnedNft {
  if (!isJsonObject(raw) || !isJsonObject(raw.contract))
    throw new UnexpectedReplyError('getNFTsForOwner: an NFT lacks its contract');
  const contract = raw.contract;
  if (typeof contract.address !== 'string' || !isAddress(contract.address, { strict: false })) {
    throw new UnexpectedReplyError('getNFTsForOwner: contract.address is not an address');
  }
  if (typeof raw.tokenId !== 'string' || !/^\d+$/.test(raw.tokenId))
    throw new UnexpectedReplyError('getNFTsForOwner: tokenId is not decimal');
  const image = isJsonObject(raw.image) ? (str(raw.image.cachedUrl) ?? str(raw.image.originalUrl)) : null;
  const openSea = isJsonObject(contract.openSeaMetadata) ? contract.openSeaMetadata : {};
  const collection = isJsonObject(raw.collection) ? raw.collection : {};
  return {
    contract: getAddress(contract.address),
    tokenId: raw.tokenId,
    tokenType: str(raw.tokenType) ?? str(contract.tokenType) ?? 'UNKNOWN',
    name: str(raw.name),
    description: str(raw.description),
    image,
    tokenUri: str(raw.tokenUri),
    collectionName: str(collection.name) ?? str(openSea.collectionName) ?? str(contract.name),
    collectionSymbol: str(contract.symbol),
    balance: typeof raw.balance === 'string' && /^\d+$/.test(raw.balance) ? raw.balance : '1',
  };
}

/**
 * NFT API v3 `getNFTsForOwner` reply → one page of our NFTs.
 * @example mapOwnedNftPage({ ownedNfts: [], totalCount: 0, pageKey: null }).totalCount // 0
 */
export function mapOwnedNftPage(json: unknown): OwnedNftPage {
  if (!isJsonObject(json) || !Array.isArray(json.ownedNfts))
    throw new UnexpectedReplyError('getNFTsForOwner: expected { ownedNfts: [...] }');
  const totalCount = finiteNumber(json.totalCount);
  if (totalCount === null || !Number.isInteger(totalCount) || totalCount < 0)
    throw new UnexpectedReplyError('getNFTsForOwner: totalCount missing');
  return { nfts: json.ownedNfts.map(mapOwnedNft), totalCount, pageKey: str(json.pageKey) };
}

export interface AlchemyNftClientParams extends Omit<HttpUpstreamParams, 'baseUrl' | 'headers' | 'now'> {
  /** Per chain: `https://<network>.g.alchemy.com/nft/v3/<key>` live, or the replay's `/nft/v3/<key>` prefix. */
  baseUrlFor: (chain: ChainKey) => string;
}

/**
 * Alchemy's NFT API v3: the NFTs an address holds, page by page (100 a page). The API key is part of the base URL,
 * which never reaches a log or an error message (only the path does).
 * @example await new AlchemyNftClient({ baseUrlFor, mode: 'live', registry, timeoutMs }).ownedPage('ethereum', '0x…', null)
 */
export class AlchemyNftClient {
  readonly client: SourceClient;
  private readonly http = new Map<ChainKey, HttpJsonSource>();

  constructor(private readonly p: AlchemyNftClientParams) {
    this.client = upstreamSourceClient({
      ...p,
      name: 'alchemy-nft',
      kind: 'nft',
      description: 'Alchemy NFT API v3',
      freshnessMs: NFT_FRESHNESS_MS,
    });
  }

  private httpFor(chain: ChainKey): HttpJsonSource {
    let found = this.http.get(chain);
    if (!found) {
      found = new HttpJsonSource({ baseUrl: this.p.baseUrlFor(chain), client: this.client, fetch: this.p.fetch });
      this.http.set(chain, found);
    }
    return found;
  }

  /** One page (100) of the NFTs `owner` holds, from the start (pageKey null) or from a page key Alchemy gave. */
  async ownedPage(chain: ChainKey, owner: Address, pageKey: string | null): Promise<OwnedNftPage> {
    requireServedChain('alchemy-nft', this.p.mode, chain);
    const page = await this.httpFor(chain).getMapped('/getNFTsForOwner', mapOwnedNftPage, {
      query: { owner: owner.toLowerCase(), withMetadata: true, pageSize: NFT_PAGE_SIZE, pageKey: pageKey ?? undefined },
      cacheKey: `${chain}:${owner.toLowerCase()}:${pageKey ?? ''}`,
    });
    if (page === null) throw serviceUnavailable('alchemy-nft answered 404 on /getNFTsForOwner');
    return page;
  }
}
