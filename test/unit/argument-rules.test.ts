import { isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ensName, normalizeEnsName } from '../../src/arguments/ens-name.js';
import { checksummedAddress, EVM_ADDRESS_PATTERN, evmAddress } from '../../src/arguments/evm-address.js';

describe('an ENS name argument', () => {
  it('normalises with ENSIP-15 and refuses what it cannot normalise', () => {
    expect(normalizeEnsName(' Alice.ETH ')).toBe('alice.eth');
    expect(() => normalizeEnsName('alice')).toThrow(/two labels/);
    expect(() => normalizeEnsName('a..eth')).toThrow();
    expect(() => normalizeEnsName('bad name.eth')).toThrow(/ENSIP-15/);
    expect(() => normalizeEnsName(`${'a'.repeat(256)}.eth`)).toThrow(/255 bytes/);
    expect(() => normalizeEnsName(`${'a'.repeat(513)}.eth`)).toThrow('ENS name must be 1 to 512 characters');
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
