import { type Hex, verifyMessage } from 'viem';
import { ApiError } from '../errors/api-error.js';
import type { NonceRecord } from '../store/store.js';
import { parseSiweMessage, SiweMessageError, type SiweMessageFields } from './siwe-message.js';

/** Checks a signature by an address that may be a contract wallet (EIP-1271, ERC-6492), on the message's chain. */
export type ContractSignatureCheck = (p: {
  address: `0x${string}`;
  message: string;
  signature: Hex;
  chainId: number;
}) => Promise<boolean>;

export interface VerifySiweParams {
  message: string;
  signature: string;
  /** ms since epoch. */
  now: number;
  /** The nonce's challenge while it is unused and live, without using it up; else null. */
  findNonce: (nonce: string) => Promise<NonceRecord | null>;
  /** Uses the nonce up (single use); null when it is unknown, used or expired. */
  consumeNonce: (nonce: string) => Promise<NonceRecord | null>;
  /** Contract-wallet check; absent when no RPC is configured, so only EOA signatures are accepted. */
  checkContractSignature?: ContractSignatureCheck;
}

/**
 * docs/api-contract.md#sign-in-errors, each a 401 (docs/access.md#who-is-counted): a sign-in is either a session or a
 * refusal to authenticate.
 */
const refuse = {
  message: (why: string) => new ApiError('INVALID_MESSAGE', `not a valid SIWE (EIP-4361) message: ${why}`),
  notChallenge: (field: string, expected: string | number, got: string | number) =>
    new ApiError(
      'INVALID_MESSAGE',
      `the message's ${field} is ${JSON.stringify(got)}, the challenge's ${JSON.stringify(expected)}`,
    ),
  nonce: () => new ApiError('INVALID_NONCE', 'the nonce is unknown, expired or already used; request a new challenge'),
  signature: () => new ApiError('INVALID_SIGNATURE', 'the signature does not match the message and its address'),
  expired: (why: string) => new ApiError('EXPIRED_MESSAGE', why),
  domain: (expected: string, got: string) =>
    new ApiError(
      'DOMAIN_MISMATCH',
      `the message is for ${JSON.stringify(got)}, the challenge for ${JSON.stringify(expected)}`,
    ),
};

const HEX_SIGNATURE = /^0x(?:[0-9a-fA-F]{2})+$/;

async function signatureMatches(fields: SiweMessageFields, p: VerifySiweParams): Promise<boolean> {
  if (!HEX_SIGNATURE.test(p.signature)) return false;
  const signature = p.signature as Hex;
  // An EOA signature is checked offline; only what fails that may be a contract wallet's.
  const byKey = await verifyMessage({ address: fields.address, message: p.message, signature }).catch(() => false);
  if (byKey) return true;
  if (!p.checkContractSignature) return false;
  return p.checkContractSignature({ address: fields.address, message: p.message, signature, chainId: fields.chainId });
}

/**
 * SIWE sign-in (EIP-4361): the message must parse strictly (version 1), be inside its validity window, use a nonce
 * this service issued (once, within 5 minutes), name the domain, URI and chain ID the challenge named, not be issued
 * before the challenge, and be signed by its address. Returns the checksummed address and the parsed message. The
 * nonce is used up only once the signature holds: anyone who sees a pending nonce could otherwise burn it with a
 * message signed by no one.
 * @example const { address } = await verifySiweSignIn({ message, signature, now: Date.now(), consumeNonce })
 */
export async function verifySiweSignIn(
  p: VerifySiweParams,
): Promise<{ address: `0x${string}`; fields: SiweMessageFields }> {
  let fields: SiweMessageFields;
  try {
    fields = parseSiweMessage(p.message);
  } catch (err) {
    if (err instanceof SiweMessageError) throw refuse.message(err.message);
    throw err;
  }
  if (fields.expirationTime !== undefined && p.now >= fields.expirationTime) {
    throw refuse.expired(`the message expired at ${new Date(fields.expirationTime).toISOString()}`);
  }
  if (fields.notBefore !== undefined && p.now < fields.notBefore) {
    throw refuse.expired(`the message is not valid before ${new Date(fields.notBefore).toISOString()}`);
  }
  const nonce = await p.findNonce(fields.nonce);
  if (!nonce) throw refuse.nonce();
  if (fields.domain !== nonce.domain) throw refuse.domain(nonce.domain, fields.domain);
  if (fields.uri !== nonce.uri) throw refuse.notChallenge('URI', nonce.uri, fields.uri);
  if (fields.chainId !== nonce.chainId) throw refuse.notChallenge('chain ID', nonce.chainId, fields.chainId);
  // Wallets often write whole seconds: an issuedAt in the challenge's own second is not older than it.
  if (fields.issuedAt < Math.floor(nonce.issuedAt / 1000) * 1000) {
    throw refuse.expired('the message was issued before its challenge');
  }
  if (!(await signatureMatches(fields, p))) throw refuse.signature();
  // Of concurrent sign-ins with one signed message, the one that uses the nonce up wins; the others are refused.
  if (!(await p.consumeNonce(fields.nonce))) throw refuse.nonce();
  return { address: fields.address, fields };
}
