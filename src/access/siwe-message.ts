import { getAddress, isAddress } from 'viem';

/** The only version EIP-4361 defines; challenges name it and messages must carry it. */
export const SIWE_VERSION = '1';

/** The fields of an EIP-4361 (Sign-In with Ethereum) message, times kept as written and as ms since epoch. */
export interface SiweMessageFields {
  scheme?: string;
  domain: string;
  /** EIP-55 checksummed, exactly as signed. */
  address: `0x${string}`;
  statement?: string;
  uri: string;
  version: '1';
  chainId: number;
  nonce: string;
  issuedAt: number;
  expirationTime?: number;
  notBefore?: number;
  requestId?: string;
  resources?: string[];
}

/** The message is not EIP-4361: a line is missing, out of order or malformed. */
export class SiweMessageError extends Error {
  override name = 'SiweMessageError';
}

// RFC 3986 building blocks.
const PCT = '%[0-9A-Fa-f]{2}';
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})+`;
const IP_LITERAL = `\\[[0-9A-Fa-f:.]+\\]|\\[v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+\\]`;
const AUTHORITY = new RegExp(`^(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::[0-9]*)?$`);
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+\\-.]*:(?:[${UNRESERVED}${SUB_DELIMS}:/?#\\[\\]@]|${PCT})*$`);
const REQUEST_ID = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})*$`);
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * The whole message, line by line in the order EIP-4361 fixes. Without a statement the spec writes an empty
 * line where it would be (three line feeds); some wallets (and viem) write two: both are read.
 */
const MESSAGE = new RegExp(
  [
    '^(?:(?<scheme>[A-Za-z][A-Za-z0-9+\\-.]*)://)?(?<domain>[^\\s/?#]+) wants you to sign in with your Ethereum account:\\n',
    '(?<address>0x[0-9A-Fa-f]{40})\\n\\n',
    '(?:(?<statement>[^\\n]+)\\n\\n|\\n)?',
    'URI: (?<uri>[^\\n]+)\\n',
    'Version: (?<version>[^\\n]+)\\n',
    'Chain ID: (?<chainId>[^\\n]+)\\n',
    'Nonce: (?<nonce>[^\\n]+)\\n',
    'Issued At: (?<issuedAt>[^\\n]+)',
    '(?:\\nExpiration Time: (?<expirationTime>[^\\n]+))?',
    '(?:\\nNot Before: (?<notBefore>[^\\n]+))?',
    '(?:\\nRequest ID: (?<requestId>[^\\n]*))?',
    '(?:\\nResources:(?<resources>(?:\\n- [^\\n]+)+))?',
    '$',
  ].join(''),
);

/** Days in a month of the proleptic Gregorian calendar. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * An RFC 3339 date-time (the form EIP-4361 requires) as ms since epoch; a day, hour or offset out of range is
 * refused rather than rolled over the way `Date` would (2022-02-31 is not March 3rd).
 */
export function parseSiweDateTime(value: string, field: string): number {
  const m = DATE_TIME.exec(value);
  if (!m) throw new SiweMessageError(`${field} is not an RFC 3339 date-time`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetOk = m[8] === 'Z' || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  const inRange =
    month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59;
  const ms = Date.parse(value);
  if (!inRange || !offsetOk || Number.isNaN(ms)) throw new SiweMessageError(`${field} is not a valid date-time`);
  return ms;
}

/**
 * Parses an EIP-4361 message strictly (spruceid's parsing vectors): authority and URIs per RFC 3986, an EIP-55
 * address, version 1, a decimal chain ID, a nonce of at least 8 letters or digits, RFC 3339 times.
 * @example parseSiweMessage(createSiweMessage({ domain, address, uri, version: '1', chainId: 1, nonce })).nonce
 */
export function parseSiweMessage(message: string): SiweMessageFields {
  const g = MESSAGE.exec(message)?.groups;
  if (!g) throw new SiweMessageError('not an EIP-4361 message: a line is missing, malformed or out of order');
  const domain = g.domain!;
  if (!AUTHORITY.test(domain)) throw new SiweMessageError('domain is not an RFC 3986 authority');
  const address = g.address!;
  if (!isAddress(address, { strict: false }) || getAddress(address) !== address) {
    throw new SiweMessageError('address is not an EIP-55 checksummed address');
  }
  if (!URI.test(g.uri!)) throw new SiweMessageError('URI is not an RFC 3986 URI');
  if (g.version !== SIWE_VERSION) throw new SiweMessageError(`version must be ${SIWE_VERSION}`);
  if (!/^[1-9][0-9]{0,15}$/.test(g.chainId!)) throw new SiweMessageError('chain ID must be a positive decimal integer');
  const chainId = Number(g.chainId);
  if (!Number.isSafeInteger(chainId)) throw new SiweMessageError('chain ID is too large');
  if (!/^[A-Za-z0-9]{8,}$/.test(g.nonce!)) throw new SiweMessageError('nonce must be at least 8 letters or digits');
  if (g.requestId !== undefined && !REQUEST_ID.test(g.requestId)) throw new SiweMessageError('request ID is malformed');
  const resources = g.resources?.split('\n- ').slice(1);
  for (const resource of resources ?? []) {
    if (!URI.test(resource)) throw new SiweMessageError('a resource is not an RFC 3986 URI');
  }
  return {
    ...(g.scheme ? { scheme: g.scheme } : {}),
    domain,
    address: address as `0x${string}`,
    ...(g.statement ? { statement: g.statement } : {}),
    uri: g.uri!,
    version: '1',
    chainId,
    nonce: g.nonce!,
    issuedAt: parseSiweDateTime(g.issuedAt!, 'issuedAt'),
    ...(g.expirationTime !== undefined
      ? { expirationTime: parseSiweDateTime(g.expirationTime, 'expirationTime') }
      : {}),
    ...(g.notBefore !== undefined ? { notBefore: parseSiweDateTime(g.notBefore, 'notBefore') } : {}),
    ...(g.requestId !== undefined ? { requestId: g.requestId } : {}),
    ...(resources ? { resources } : {}),
  };
}
