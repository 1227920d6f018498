import { type Address, getAddress, isAddressEqual, parseAbi } from 'viem';
import { decodeTokenUri } from '../rpc/token-uri.js';
import { type AvatarLink, avatarLink, NFT_URI } from './avatar-uri.js';

/** An ENSIP-12 NFT avatar record, `eip155:<chain>/<erc721|erc1155>:<contract>/<token id>`, read apart. */
export interface NftAvatarRef {
  chainId: number;
  standard: 'erc721' | 'erc1155';
  contract: Address;
  tokenId: bigint;
}

/** What the chain says of an NFT avatar: whether the name's address holds the token, and the token's URI. */
export interface NftAvatarRead {
  owned: boolean;
  tokenUri: string | null;
}

export const nftAvatarAbi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
  'function uri(uint256 id) view returns (string)',
]);

/**
 * An avatar record naming an NFT, read apart; null for any other record.
 * @example parseNftAvatar('eip155:1/erc721:0xb47e…/2430') // { chainId: 1, standard: 'erc721', contract: '0xb47e…', tokenId: 2430n }
 */
export function parseNftAvatar(record: string): NftAvatarRef | null {
  const match = NFT_URI.exec(record.trim());
  if (!match) return null;
  return {
    chainId: Number(match[1]),
    standard: match[2]!.toLowerCase() as NftAvatarRef['standard'],
    contract: getAddress(match[3]!),
    tokenId: BigInt(match[4]!),
  };
}

/** Whether `owner` holds the token by what the chain answered (ERC-721 ownerOf, ERC-1155 balanceOf). */
export function holdsToken(standard: NftAvatarRef['standard'], owner: Address, answer: unknown): boolean {
  if (standard === 'erc721') return typeof answer === 'string' && isAddressEqual(answer as Address, owner);
  return typeof answer === 'bigint' && answer > 0n;
}

/** ERC-1155's `{id}` in a URI: the token id as 64 lower-case hex digits. */
const withTokenId = (uri: string, tokenId: bigint): string =>
  uri.replaceAll('{id}', tokenId.toString(16).padStart(64, '0'));

/**
 * The image an NFT avatar shows (ENSIP-12), from what the chain answered: none when the name's address does not hold
 * the token (ENSIP-12's owner check); the metadata's `image` as a loadable link when the token URI carries its
 * metadata inline (`data:application/json`); ENS's metadata service (which fetches it) when the metadata is off
 * chain, as the service itself never requests a host a token names.
 * @example nftAvatarLink(ref, { owned: true, tokenUri: 'data:application/json;base64,…' }, 'nft.eth') // { url: 'https://ipfs.io/ipfs/…', type: 'nft' }
 */
export function nftAvatarLink(ref: NftAvatarRef, read: NftAvatarRead, name: string): AvatarLink | null {
  if (!read.owned || read.tokenUri === null) return null;
  const content = decodeTokenUri(withTokenId(read.tokenUri, ref.tokenId));
  if (content.kind === 'inline') {
    const metadata = content.metadata ?? {};
    const image = [metadata.image, metadata.image_url, metadata.image_data].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    // image_data is raw SVG (OpenSea's metadata standard).
    const record =
      image !== undefined && image === metadata.image_data && image.trimStart().startsWith('<svg')
        ? `data:image/svg+xml;base64,${Buffer.from(image).toString('base64')}`
        : image;
    const link = record === undefined || parseNftAvatar(record) ? null : avatarLink(record, name);
    return link ? { url: link.url, type: 'nft' } : null;
  }
  if (content.kind === 'url')
    return avatarLink(`eip155:${ref.chainId}/${ref.standard}:${ref.contract}/${ref.tokenId}`, name);
  return null;
}
