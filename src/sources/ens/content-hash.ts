import { bytesToHex, concat, type Hex, hexToBytes, isHex } from 'viem';

/** ENSIP-7 namespace codecs (multicodec varints) the service reads and writes. */
const IPFS_NS: readonly number[] = [0xe3, 0x01];
const IPNS_NS: readonly number[] = [0xe5, 0x01];
const SWARM_NS: readonly number[] = [0xe4, 0x01];
/** A Swarm manifest CID: CIDv1, codec swarm-manifest (0xfa), multihash keccak-256 (0x1b) of 32 bytes. */
const SWARM_CID: readonly number[] = [0x01, 0xfa, 0x01, 0x1b, 0x20];
/** Arweave's namespace (0xb29910 as a varint), then the 32-byte transaction id. */
const ARWEAVE_NS: readonly number[] = [0x90, 0xb2, 0xca, 0x05];
/** Tor: onion (v2, 16 characters) and onion3 (56 characters), the address as ASCII. */
const ONION_NS: readonly number[] = [0xbc, 0x03];
const ONION3_NS: readonly number[] = [0xbd, 0x03];

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export class InvalidContentHashError extends Error {
  override name = 'InvalidContentHashError';
}

/** RFC 4648 base32, lower case, no padding (the multibase `b` alphabet). */
function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function base32Decode(text: string): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) throw new InvalidContentHashError(`"${char}" is not a base32 character`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * An ENSIP-7 contenthash record → its URI as ENS clients show it: `ipfs://<CIDv1 base32>`, `ipns://…`, `bzz://<hex>`,
 * `ar://<transaction id>`, `onion://…`, `onion3://…`; null when empty or of a kind we do not render.
 * @example decodeContentHash('0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f') // 'ipfs://bafybei…'
 */
export function decodeContentHash(record: Hex): string | null {
  if (!isHex(record) || record === '0x') return null;
  const bytes = hexToBytes(record);
  const body = bytes.subarray(2);
  for (const [prefix, scheme] of [
    [IPFS_NS, 'ipfs'],
    [IPNS_NS, 'ipns'],
  ] as const) {
    if (!startsWith(bytes, prefix) || body.length < 2) continue;
    // A CIDv0 (bare sha2-256 multihash) is shown as the CIDv1 dag-pb it stands for.
    const cid = body[0] === 0x12 && body[1] === 0x20 ? concat([Uint8Array.of(0x01, 0x70), body]) : body;
    return `${scheme}://b${base32Encode(cid)}`;
  }
  if (startsWith(bytes, SWARM_NS) && body.length >= 32)
    return `bzz://${bytesToHex(body.subarray(body.length - 32)).slice(2)}`;
  if (startsWith(bytes, ARWEAVE_NS) && bytes.length === ARWEAVE_NS.length + 32)
    return `ar://${Buffer.from(bytes.subarray(ARWEAVE_NS.length)).toString('base64url')}`;
  for (const [prefix, scheme, length] of [
    [ONION_NS, 'onion', 16],
    [ONION3_NS, 'onion3', 56],
  ] as const) {
    const id = Buffer.from(body).toString('latin1');
    if (startsWith(bytes, prefix) && body.length === length && /^[a-z2-7]+$/.test(id)) return `${scheme}://${id}`;
  }
  return null;
}

/**
 * A content URI → the ENSIP-7 contenthash bytes a resolver stores: `ipfs://` or `ipns://` with a base32 CIDv1,
 * `bzz://<64 hex>`, `ar://<43-character transaction id>`, `onion://<16>` or `onion3://<56 characters>`.
 * @example encodeContentHash('ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi') // '0xe30101701220…'
 */
export function encodeContentHash(uri: string): Hex {
  const swarm = /^bzz:\/\/([0-9a-f]{64})$/.exec(uri);
  if (swarm) return bytesToHex(concat([Uint8Array.from([...SWARM_NS, ...SWARM_CID]), hexToBytes(`0x${swarm[1]}`)]));
  const arweave = /^ar:\/\/([A-Za-z0-9_-]{43})$/.exec(uri);
  if (arweave) return bytesToHex(concat([Uint8Array.from(ARWEAVE_NS), Buffer.from(arweave[1]!, 'base64url')]));
  const onion = /^(onion|onion3):\/\/([a-z2-7]+)$/.exec(uri);
  if (onion && onion[2]!.length === (onion[1] === 'onion' ? 16 : 56))
    return bytesToHex(
      concat([Uint8Array.from(onion[1] === 'onion' ? ONION_NS : ONION3_NS), Buffer.from(onion[2]!, 'latin1')]),
    );
  const match = /^(ipfs|ipns):\/\/b([a-z2-7]+)$/.exec(uri);
  if (!match)
    throw new InvalidContentHashError(
      `${uri} is not a content URI: ipfs:// or ipns:// with a base32 CIDv1, bzz://, ar://, onion:// or onion3://`,
    );
  const prefix = match[1] === 'ipfs' ? IPFS_NS : IPNS_NS;
  return bytesToHex(concat([Uint8Array.from(prefix), base32Decode(match[2]!)]));
}
