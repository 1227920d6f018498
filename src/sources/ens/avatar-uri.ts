/** Fixed gateways ENSIP-12 URIs are rewritten to; the service links to them and never fetches them. */
export const IPFS_GATEWAY = 'https://ipfs.io';
export const ARWEAVE_GATEWAY = 'https://arweave.net';
/** ENS's own metadata service renders an NFT avatar (eip155 URI) of a name as an image. */
export const ENS_METADATA_SERVICE = 'https://metadata.ens.domains';

/** What kind of avatar record a name holds: how the URL was made. */
export type AvatarType = 'https' | 'ipfs' | 'ipns' | 'arweave' | 'data' | 'nft';

export interface AvatarLink {
  /** An https URL to show the image from, or the record itself for a `data:` image. */
  url: string;
  type: AvatarType;
}

const CID = /^(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{20,})$/;
export const NFT_URI = /^eip155:(\d{1,10})\/(erc721|erc1155):(0x[0-9a-fA-F]{40})\/(\d{1,78})$/;
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*(;base64)?,/i;
/** Longest record turned into a link; a larger `data:` image is refused rather than echoed. */
const MAX_RECORD_LENGTH = 100_000;

/** The path after a CID, kept only when it is plain path characters. */
function safePath(path: string): string | null {
  return path === '' || /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path) ? path : null;
}

function httpsUrl(record: string): string | null {
  let url: URL;
  try {
    url = new URL(record);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  url.protocol = 'https:';
  return url.toString();
}

/**
 * An ENSIP-12 avatar record → an https URL a client can load (IPFS and Arweave through fixed public gateways, NFTs
 * through ENS's metadata service), or the record itself for a `data:` image; null for anything else. Pure: nothing
 * is fetched, so a name's owner cannot make the service call a host of their choosing.
 * @example avatarLink('ipfs://bafy…/a.png', 'alice.eth') // { url: 'https://ipfs.io/ipfs/bafy…/a.png', type: 'ipfs' }
 */
export function avatarLink(record: string, name: string): AvatarLink | null {
  const value = record.trim();
  if (value === '' || value.length > MAX_RECORD_LENGTH) return null;
  if (DATA_IMAGE.test(value)) return { url: value, type: 'data' };
  const lower = value.toLowerCase();
  if (lower.startsWith('https://') || lower.startsWith('http://')) {
    const url = httpsUrl(value);
    return url ? { url, type: 'https' } : null;
  }
  for (const [scheme, type] of [
    ['ipfs://', 'ipfs'],
    ['ipns://', 'ipns'],
  ] as const) {
    if (!lower.startsWith(scheme)) continue;
    // ipfs://ipfs/<cid> is a common misspelling of ipfs://<cid>.
    const rest = value.slice(scheme.length).replace(/^ip[fn]s\//i, '');
    const slash = rest.indexOf('/');
    const id = slash < 0 ? rest : rest.slice(0, slash);
    const path = safePath(slash < 0 ? '' : rest.slice(slash));
    if (path === null || !(type === 'ipns' ? /^[A-Za-z0-9.-]{1,253}$/.test(id) : CID.test(id))) return null;
    return { url: `${IPFS_GATEWAY}/${type}/${id}${path}`, type };
  }
  if (lower.startsWith('ar://')) {
    const id = value.slice('ar://'.length);
    return /^[A-Za-z0-9_-]{43}$/.test(id) ? { url: `${ARWEAVE_GATEWAY}/${id}`, type: 'arweave' } : null;
  }
  if (CID.test(value)) return { url: `${IPFS_GATEWAY}/ipfs/${value}`, type: 'ipfs' };
  if (NFT_URI.test(value))
    return { url: `${ENS_METADATA_SERVICE}/mainnet/avatar/${encodeURIComponent(name)}`, type: 'nft' };
  return null;
}
