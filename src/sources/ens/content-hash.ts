import { bytesToHex, concat, type Hex, hexToBytes, isHex } from 'viem';

/** ENSIP-7 namespace codecs (multicodec varints) the service reads and writes. */
const IPFS_NS: readonly number[] = [0xe3, 0x01];
const IPNS_NS: readonly number[] = [0xe5, 0x01];
const SWARM_NS: readonly number[] = [0xe4, 0x01];

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
 * An ENSIP-7 contenthash record → its URI: `ipfs://<CIDv1 base32>`, `ipns://…`, `bzz://<hex>`; null when empty or of a
 * kind we do not render.
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
  return null;
}

/**
 * `ipfs://<CIDv1 base32>` or `ipns://<CIDv1 base32>` → the ENSIP-7 contenthash bytes a resolver stores.
 * @example encodeContentHash('ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi') // '0xe30101701220…'
 */
export function encodeContentHash(uri: string): Hex {
  const match = /^(ipfs|ipns):\/\/b([a-z2-7]+)$/.exec(uri);
  if (!match) throw new InvalidContentHashError(`${uri} is not an ipfs:// or ipns:// URI with a base32 CIDv1`);
  const prefix = match[1] === 'ipfs' ? IPFS_NS : IPNS_NS;
  return bytesToHex(concat([Uint8Array.from(prefix), base32Decode(match[2]!)]));
}
