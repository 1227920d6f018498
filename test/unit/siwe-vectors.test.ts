import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSiweMessage, SiweMessageError } from '../../src/access/siwe-message.js';
import { verifySiweSignIn } from '../../src/access/verify-siwe.js';
import { ApiError } from '../../src/errors/api-error.js';

/** spruceid/siwe's test vectors, copied into test/fixtures/vectors/siwe (source and licence in its README). */
const VECTORS = join(import.meta.dirname, '..', 'fixtures', 'vectors', 'siwe');
const load = <T>(file: string): Record<string, T> => JSON.parse(readFileSync(join(VECTORS, file), 'utf8'));

interface MessageFields {
  scheme?: string | null;
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}

interface VerificationVector extends MessageFields {
  signature: string;
  /** The time to verify at (spruceid's `time` option); now otherwise. */
  time?: string;
  /** The domain the verifier expects (spruceid's `domain` option): here, the challenge's domain. */
  domainBinding?: string;
  /** The nonce the verifier expects (spruceid's `nonce` option): here, the nonce this server issued. */
  matchNonce?: string;
}

/** The EIP-4361 text of the fields, written verbatim (no Date round trip: invalid dates stay invalid). */
function formatMessage(f: MessageFields): string {
  const lines = [
    `${f.scheme ? `${f.scheme}://` : ''}${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    '',
    ...(f.statement ? [f.statement, ''] : ['']),
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  ];
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  if (f.notBefore) lines.push(`Not Before: ${f.notBefore}`);
  if (f.requestId !== undefined) lines.push(`Request ID: ${f.requestId}`);
  if (f.resources) lines.push('Resources:', ...f.resources.map((r) => `- ${r}`));
  return lines.join('\n');
}

/** Runs a vector through this service's sign-in: the nonce was issued by us for the bound domain, at the message's issuedAt. */
function verifyVector(v: VerificationVector) {
  const message = formatMessage(v);
  const now = v.time ? Date.parse(v.time) : Date.now();
  const issuedAt = Date.parse(v.issuedAt);
  // The challenge named the message's URI and chain: the vectors bind only the domain and the nonce.
  const issued = {
    nonce: v.matchNonce ?? v.nonce,
    domain: v.domainBinding ?? v.domain,
    uri: v.uri,
    chainId: v.chainId,
  };
  const challenge = async (nonce: string) =>
    nonce === issued.nonce
      ? {
          nonce,
          domain: issued.domain,
          uri: issued.uri,
          chainId: issued.chainId,
          issuedAt: Number.isNaN(issuedAt) ? now : issuedAt,
          expiresAt: now + 300_000,
        }
      : null;
  return verifySiweSignIn({ message, signature: v.signature, now, findNonce: challenge, consumeNonce: challenge });
}

describe('spruceid/siwe test vectors', () => {
  describe('parsing: every positive message is read with its fields', () => {
    for (const [name, v] of Object.entries(load<{ message: string; fields: MessageFields }>('parsing_positive.json'))) {
      it(name, () => {
        const parsed = parseSiweMessage(v.message);
        const f = v.fields;
        expect(parsed).toMatchObject({
          domain: f.domain,
          address: f.address,
          uri: f.uri,
          version: f.version,
          chainId: f.chainId,
          nonce: f.nonce,
          issuedAt: Date.parse(f.issuedAt),
        });
        expect(parsed.scheme).toBe(f.scheme ?? undefined);
        expect(parsed.statement).toBe(f.statement);
        expect(parsed.resources).toEqual(f.resources);
        if (f.expirationTime) expect(parsed.expirationTime).toBe(Date.parse(f.expirationTime));
        if (f.notBefore) expect(parsed.notBefore).toBe(Date.parse(f.notBefore));
      });
    }
  });

  describe('parsing: every negative message is refused', () => {
    for (const [name, message] of Object.entries(load<string>('parsing_negative.json'))) {
      it(name, () => {
        expect(() => parseSiweMessage(message)).toThrow(SiweMessageError);
      });
    }
  });

  describe('parsing: every negative object, written out as a message, is refused', () => {
    for (const [name, fields] of Object.entries(load<Partial<MessageFields>>('parsing_negative_objects.json'))) {
      it(name, () => {
        const message = formatMessage({
          domain: '',
          address: '',
          uri: '',
          version: '',
          chainId: '' as unknown as number,
          nonce: '',
          issuedAt: '',
          ...fields,
        });
        expect(() => parseSiweMessage(message)).toThrow(SiweMessageError);
      });
    }
  });

  describe('verification: every positive vector signs in', () => {
    for (const [name, v] of Object.entries(load<VerificationVector>('verification_positive.json'))) {
      it(name, async () => {
        const { address } = await verifyVector(v);
        expect(address).toBe(v.address);
      });
    }
  });

  describe('verification: every negative vector is refused with a sign-in error', () => {
    const expected: Record<string, string> = {
      'expired message': 'EXPIRED_MESSAGE',
      'domain binding': 'DOMAIN_MISMATCH',
      'custom time': 'EXPIRED_MESSAGE',
      'custom nonce': 'INVALID_NONCE',
      'malformed signature': 'INVALID_SIGNATURE',
      'wrong signature': 'INVALID_SIGNATURE',
      'not yet valid': 'EXPIRED_MESSAGE',
      'invalid issuedAt': 'INVALID_MESSAGE',
      'invalid notBefore': 'INVALID_MESSAGE',
      'invalid expirationTime': 'INVALID_MESSAGE',
    };
    for (const [name, v] of Object.entries(load<VerificationVector>('verification_negative.json'))) {
      it(name, async () => {
        const refusal = await verifyVector(v).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refusal).toBeInstanceOf(ApiError);
        expect((refusal as ApiError).code).toBe(expected[name] ?? 'a known vector');
        expect((refusal as ApiError).status).toBe(401);
      });
    }
  });
});

describe('sign-in checks beyond the vectors', () => {
  const example = (): VerificationVector => load<VerificationVector>('verification_positive.json')['example message']!;

  it('a signature that fails the EOA check is offered to the contract-wallet check, whose answer decides', async () => {
    const fields = example();
    const wrong = {
      ...fields,
      signature: load<VerificationVector>('verification_negative.json')['wrong signature']!.signature,
    };
    const message = formatMessage(wrong);
    const base = {
      message,
      signature: wrong.signature,
      now: Date.parse('2023-01-01T00:00:00Z'),
      findNonce: async (nonce: string) => ({
        nonce,
        domain: fields.domain,
        uri: fields.uri,
        chainId: fields.chainId,
        issuedAt: Date.parse(fields.issuedAt),
        expiresAt: Infinity,
      }),
      consumeNonce: async (nonce: string) => ({
        nonce,
        domain: fields.domain,
        uri: fields.uri,
        chainId: fields.chainId,
        issuedAt: Date.parse(fields.issuedAt),
        expiresAt: Infinity,
      }),
    };
    const asked: unknown[] = [];
    const accepted = await verifySiweSignIn({
      ...base,
      checkContractSignature: async (p) => {
        asked.push(p);
        return true;
      },
    });
    expect(accepted.address).toBe(fields.address);
    expect(asked).toEqual([{ address: fields.address, message, signature: wrong.signature, chainId: 1 }]);
    await expect(verifySiweSignIn({ ...base, checkContractSignature: async () => false })).rejects.toMatchObject({
      code: 'INVALID_SIGNATURE',
    });
  });

  it('a wrong signature leaves the nonce unused: it is used up only by a sign-in whose signature holds', async () => {
    const fields = example();
    const used: string[] = [];
    const message = formatMessage(fields);
    const challenge = async (nonce: string) => ({
      nonce,
      domain: fields.domain,
      uri: fields.uri,
      chainId: fields.chainId,
      issuedAt: Date.parse(fields.issuedAt),
      expiresAt: Infinity,
    });
    const signIn = (signature: string) =>
      verifySiweSignIn({
        message,
        signature,
        now: Date.parse('2023-01-01T00:00:00Z'),
        findNonce: challenge,
        consumeNonce: async (nonce) => {
          used.push(nonce);
          return challenge(nonce);
        },
      });
    await expect(signIn('0x00')).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect(used).toEqual([]);
  });
});
