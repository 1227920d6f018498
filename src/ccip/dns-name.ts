import { type Hex, hexToBytes } from 'viem';

/** DNS wire format caps a whole name at 255 bytes; ENS names sent by resolvers stay far below. */
const MAX_NAME_BYTES = 255;

export class DnsNameError extends Error {
  override name = 'DnsNameError';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A DNS-encoded name (RFC 1035 wire format, as ENSIP-10's `resolve(bytes name, bytes data)` carries it) → its dotted
 * form. Each label is a length byte and that many UTF-8 bytes; a zero byte ends the name and must be the last byte.
 * @example decodeDnsName('0x04746573740365746800') // 'test.eth'
 */
export function decodeDnsName(encoded: Hex): string {
  const bytes = hexToBytes(encoded);
  if (bytes.length === 0 || bytes.length > MAX_NAME_BYTES)
    throw new DnsNameError(`a DNS-encoded name is 1 to ${MAX_NAME_BYTES} bytes`);
  const labels: string[] = [];
  let at = 0;
  for (;;) {
    const length = bytes[at];
    if (length === undefined) throw new DnsNameError('DNS-encoded name is not terminated by a zero byte');
    if (length === 0) break;
    const end = at + 1 + length;
    if (end > bytes.length) throw new DnsNameError('DNS-encoded label runs past the end of the name');
    let label: string;
    try {
      label = utf8.decode(bytes.subarray(at + 1, end));
    } catch {
      throw new DnsNameError('DNS-encoded label is not UTF-8');
    }
    if (label.includes('.') || label.includes('\u0000'))
      throw new DnsNameError('DNS-encoded label contains "." or NUL');
    labels.push(label);
    at = end;
  }
  if (at !== bytes.length - 1) throw new DnsNameError('bytes follow the end of the DNS-encoded name');
  if (labels.length === 0) throw new DnsNameError('the root name is not resolved here');
  return labels.join('.');
}
