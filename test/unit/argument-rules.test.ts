import { getAddress, InvalidAddressError, isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ensName, normalizeEnsName } from '../../src/arguments/ens-name.js';
import { checksummedAddress, EVM_ADDRESS_PATTERN, eip55Address, evmAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { subnameLabelArgument, subnameRecordsArgument } from '../../src/arguments/subname-arguments.js';

describe('an ENS name argument', () => {
  it('normalises with ENSIP-15 and refuses what it cannot normalise', () => {
    expect(normalizeEnsName(' Alice.ETH ')).toBe('alice.eth');
    expect(() => normalizeEnsName('alice')).toThrow(/two labels/);
    expect(() => normalizeEnsName('a..eth')).toThrow();
    expect(() => normalizeEnsName('bad name.eth')).toThrow(/ENSIP-15/);
    expect(() => normalizeEnsName(`${'a'.repeat(256)}.eth`)).toThrow(/255 bytes/);
    expect(() => normalizeEnsName(`${'a'.repeat(513)}.eth`)).toThrow('ENS name must be 1 to 512 characters');
  });

  it('names the ENSIP-15 problem in plain text: no invisible U+200E / U+200F marks in the message', () => {
    for (const name of ['bad name.eth', 'ab_.eth', '\u0661\u0662a.eth']) {
      const message = (() => {
        try {
          normalizeEnsName(name);
        } catch (err) {
          return (err as Error).message;
        }
        return '';
      })();
      expect(message, name).toMatch(/^invalid ENS name \(ENSIP-15\): Invalid label/);
      expect(message, name).not.toMatch(/[\u200e\u200f]/);
    }
    expect(() => normalizeEnsName('bad name.eth')).toThrow(
      'invalid ENS name (ENSIP-15): Invalid label "bad name": disallowed character: " " {20}',
    );
  });

  it('is refused by the zod schema with the message normalizeEnsName gives', () => {
    const parsed = ensName.safeParse('alice');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('ENS name must have at least two labels, e.g. alice.eth');
  });
});

describe('an EVM address argument', () => {
  it('checksums an address in any case and refuses anything else', () => {
    expect(checksummedAddress.parse('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')).toBe(
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    );
    expect(checksummedAddress.safeParse('0x123').success).toBe(false);
  });

  it('is checksummed once per text as viem checksums it, the same on the second ask, and refused as viem refuses', () => {
    for (const text of [
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x70997970C51812DC3A010C7D01B50E0D17DC79C8',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    ]) {
      expect(eip55Address(text)).toBe(getAddress(text));
      expect(eip55Address(text)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    }
    for (const bad of [
      '0x123',
      '70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79cg',
    ]) {
      expect(() => eip55Address(bad)).toThrow(InvalidAddressError);
      expect(() => eip55Address(bad)).toThrow(InvalidAddressError);
    }
  });
});

describe('the EVM address pattern', () => {
  it('accepts what viem isAddress accepts without a checksum, and nothing else', () => {
    const samples = [
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x70997970C51812DC3A010C7D01B50E0D17DC79C8',
      '0X70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8a',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79cg',
      ' 0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      'alice.eth',
    ];
    for (const value of samples) expect(EVM_ADDRESS_PATTERN.test(value)).toBe(isAddress(value, { strict: false }));
  });

  it('is refused with one message wherever an address is an argument', () => {
    expect(evmAddress.safeParse('0x123').error?.issues[0]?.message).toBe('must be 0x followed by 40 hex digits');
  });
});

describe('the subname arguments', () => {
  const refusal = (schema: z.ZodType, name: string, value: unknown) => {
    try {
      parseArgument(schema, name, value);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('a label is one ENSIP-15 label in normal form, at most 63 bytes', () => {
    expect(subnameLabelArgument.parse('dave')).toBe('dave');
    expect(refusal(subnameLabelArgument, 'label', 'Dave')).toBe('parameter label: must be in normalised form: "dave"');
    expect(refusal(subnameLabelArgument, 'label', 'é'.repeat(32))).toBe('parameter label: must be 1 to 63 bytes');
    expect(refusal(subnameLabelArgument, 'label', 'a.b')).toBe('parameter label: must be a single label, without "."');
  });

  it('an empty label and one of 64 ASCII bytes are refused by the byte rule, not by a character count', () => {
    expect(refusal(subnameLabelArgument, 'label', '')).toBe('parameter label: must be 1 to 63 bytes');
    expect(refusal(subnameLabelArgument, 'label', 'a'.repeat(64))).toBe('parameter label: must be 1 to 63 bytes');
    expect(refusal(subnameLabelArgument, 'label', 'a'.repeat(63))).toBe('accepted');
  });

  it('a text key of 0 or more than 256 characters is refused naming the map; a long value names its key', () => {
    const keys = 'parameter records.texts: text record keys must be 1 to 256 characters';
    expect(refusal(subnameRecordsArgument, 'records', { texts: { '': 'x' } })).toBe(keys);
    expect(refusal(subnameRecordsArgument, 'records', { texts: { ['k'.repeat(257)]: 'x' } })).toBe(keys);
    expect(refusal(subnameRecordsArgument, 'records', { texts: { ['k'.repeat(256)]: 'x' } })).toBe('accepted');
    expect(refusal(subnameRecordsArgument, 'records', { texts: { url: 'v'.repeat(4097) } })).toBe(
      'parameter records.texts.url: text record values must be at most 4096 characters',
    );
  });

  it('records are refused at the leaf that breaks a rule, a map key by its own rule', () => {
    const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(subnameRecordsArgument.parse({ addresses: { '060': owner.toLowerCase() } })).toEqual({
      addresses: { '60': owner },
    });
    expect(refusal(subnameRecordsArgument, 'records', { addresses: { x: owner } })).toBe(
      'parameter records.addresses.x: coin types are decimal numbers',
    );
    expect(refusal(subnameRecordsArgument, 'records', { addresses: { '1': owner } })).toMatch(
      /^parameter records\.addresses\.1: is not a served coin type/,
    );
    // Any coin ENS encodes, each address as its chain writes it (ENSIP-9): BTC bech32, not a 0x address.
    expect(subnameRecordsArgument.parse({ addresses: { '0': 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4' } })).toEqual({
      addresses: { '0': 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
    });
    expect(refusal(subnameRecordsArgument, 'records', { addresses: { '0': owner } })).toMatch(
      /^parameter records\.addresses\.0: is not a btc address/,
    );
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']));
    expect(refusal(subnameRecordsArgument, 'records', { texts: many })).toBe(
      'parameter records.texts: at most 32 text records',
    );
    expect(refusal(subnameRecordsArgument, 'records', { contenthash: 'https://example.org' })).toBe(
      'parameter records.contenthash: https://example.org is not a content URI: ipfs:// or ipns:// with a base32 CIDv1, bzz://, ar://, onion:// or onion3://',
    );
  });
});
