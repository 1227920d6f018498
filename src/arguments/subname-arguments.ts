import { z } from 'zod';
import { coinAddressBytes, coinAddressText, coinName, InvalidCoinAddressError } from '../sources/ens/coin-addresses.js';
import { encodeContentHash, InvalidContentHashError } from '../sources/ens/content-hash.js';
import { normalize } from '../sources/ens/name-hashes.js';

/**
 * The arguments of a subname registration: its label and its records. The REST rows (POST /api/subnames/…,
 * POST /api/ccip/register) and the registerSubname mutation (through the CCIP services) parse with these, so both
 * refuse a bad label or record with the same 400 INVALID_PARAMETER, named by its path (`records.addresses.60`).
 */

/** A subname label is one DNS label: at most 63 bytes. */
const MAX_LABEL_BYTES = 63;
const LABEL_SIZE_MESSAGE = `must be 1 to ${MAX_LABEL_BYTES} bytes`;
const MAX_TEXT_KEY_LENGTH = 256;
const MAX_TEXT_VALUE_LENGTH = 4096;
const TEXT_KEY_MESSAGE = `text record keys must be 1 to ${MAX_TEXT_KEY_LENGTH} characters`;
const MAX_ADDRESS_RECORDS = 16;
const MAX_TEXT_RECORDS = 32;
/** SLIP-44 coin type of ETH: the one `addr(bytes32)` answers, and the owner's address when none is given. */
export const ETH_COIN_TYPE = '60';

/**
 * One label of a subname in ENSIP-15 normal form: 1 to 63 bytes without a dot, already normalised (a label is stored
 * and served exactly as registered).
 * @example subnameLabelArgument.parse('dave') // 'dave'
 */
export const subnameLabelArgument = z
  .string()
  // A label longer than 63 UTF-16 units is longer than 63 bytes too: the byte check below says the same; these two
  // give the OpenAPI document its minLength and maxLength.
  .min(1, LABEL_SIZE_MESSAGE)
  .max(MAX_LABEL_BYTES, LABEL_SIZE_MESSAGE)
  .regex(/^[^.]+$/, 'must be a single label, without "."')
  .superRefine((label, ctx) => {
    if (Buffer.byteLength(label, 'utf8') > MAX_LABEL_BYTES) {
      ctx.addIssue({ code: 'custom', message: LABEL_SIZE_MESSAGE });
      return;
    }
    let normalised: string;
    try {
      normalised = normalize(label);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `is not a valid ENS label (ENSIP-15): ${(err as Error).message.split('\n')[0]}`,
      });
      return;
    }
    if (normalised !== label) ctx.addIssue({ code: 'custom', message: `must be in normalised form: "${normalised}"` });
  })
  .describe('one ENS label in normalised form (lower case), 1 to 63 bytes')
  .meta({ example: 'dave' });

const DECIMAL_COIN_TYPE = /^\d{1,10}$/;

/** A coin type ENS's address-encoder can write (ETH, any ENSIP-11 EVM chain, BTC, SOL …); a non-number is refused before. */
const isServedCoinType = (decimal: string): boolean =>
  !DECIMAL_COIN_TYPE.test(decimal) || (Number(decimal) <= 0xffff_ffff && coinName(Number(decimal)) !== undefined);

const coinType = z
  .string()
  .regex(DECIMAL_COIN_TYPE, 'coin types are decimal numbers')
  .refine(
    isServedCoinType,
    'is not a served coin type: use 60 (ETH), an ENSIP-11 EVM coin type (0x80000000 | chainId) or a SLIP-44 coin type ENS encodes (0 BTC, 501 SOL …)',
  );

/**
 * Address per coin type, keyed by the coin type's shortest decimal (`060` is `60`): each at most once, each an
 * address of its coin (EIP-55 checksummed for EVM chains, the coin's canonical form for the others).
 */
const addressRecords = z
  .record(coinType, z.string().min(1).max(256))
  .refine((map) => Object.keys(map).length <= MAX_ADDRESS_RECORDS, `at most ${MAX_ADDRESS_RECORDS} addresses`)
  .transform((map, ctx) => {
    const byType = new Map<string, string>();
    for (const [key, address] of Object.entries(map)) {
      const type = Number(key);
      if (byType.has(String(type))) ctx.addIssue({ code: 'custom', path: [key], message: 'is given twice' });
      try {
        byType.set(String(type), coinAddressText(type, coinAddressBytes(type, address)) ?? address);
      } catch (err) {
        if (!(err instanceof InvalidCoinAddressError)) throw err;
        ctx.addIssue({ code: 'custom', path: [key], message: err.message });
      }
    }
    return Object.fromEntries(byType);
  });

/** Whether every key of a text-record map is 1 to 256 characters; anything but a plain object is left to the map rule. */
const textKeysFit = (map: unknown): boolean =>
  typeof map !== 'object' ||
  map === null ||
  Object.keys(map).every((key) => key.length >= 1 && key.length <= MAX_TEXT_KEY_LENGTH);

/**
 * Text records by key. A bad key is refused before the map is read, named by the map (`records.texts`): a key rule
 * would name the key itself, which for an empty key reads `records.texts.`. The key rule's bounds document the keys.
 */
const textRecords = z.preprocess(
  (map, ctx) => {
    if (!textKeysFit(map)) ctx.addIssue({ code: 'custom', message: TEXT_KEY_MESSAGE });
    return map;
  },
  z
    .record(
      z.string().min(1, TEXT_KEY_MESSAGE).max(MAX_TEXT_KEY_LENGTH, TEXT_KEY_MESSAGE),
      z.string().max(MAX_TEXT_VALUE_LENGTH, `text record values must be at most ${MAX_TEXT_VALUE_LENGTH} characters`),
    )
    .refine((map) => Object.keys(map).length <= MAX_TEXT_RECORDS, `at most ${MAX_TEXT_RECORDS} text records`),
);

/** Why `uri` is no content hash the gateway can answer (ENSIP-7), or null; empty is none given. */
function contentHashProblem(uri: string): string | null {
  if (uri === '') return null;
  try {
    encodeContentHash(uri);
    return null;
  } catch (err) {
    if (err instanceof InvalidContentHashError) return err.message;
    throw err;
  }
}

const contenthash = z
  .string()
  .max(512)
  .superRefine((uri, ctx) => {
    const problem = contentHashProblem(uri);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The records of a new subname as REST callers send them, maps by coin type and text key; the output has
 * checksummed addresses under canonical coin types.
 * @example subnameRecordsArgument.parse({ addresses: { '60': '0x7099…79c8' }, texts: { url: 'https://dave.example' } })
 */
export const subnameRecordsArgument = z
  .object({
    addresses: addressRecords
      .optional()
      .describe(
        'address per coin type (ENSIP-9): "60" is ETH, 0x80000000 | chainId an EVM chain (ENSIP-11), "0" BTC, "501" SOL and the other coins ENS encodes, each as its chain writes it; at most 16; none given: the owner for "60"',
      ),
    texts: textRecords.optional().describe('text records (ENSIP-5), at most 32'),
    contenthash: contenthash
      .optional()
      .describe(
        'ENSIP-7 content hash as a URI: ipfs:// or ipns:// with a base32 CIDv1, bzz://, ar://, onion:// or onion3://',
      ),
  })
  .describe('records the CCIP gateway answers for the name');

export type SubnameRecordsArgument = z.output<typeof subnameRecordsArgument>;
