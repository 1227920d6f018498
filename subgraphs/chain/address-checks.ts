import { getAddress } from 'viem';
import { EVM_ADDRESS_PATTERN } from '../../src/arguments/evm-address.js';

/** What the validate route says about one entry. */
export interface AddressValidity {
  input: string;
  /** 0x and 40 hex digits, and a mixed-case input carries a correct EIP-55 checksum. */
  valid: boolean;
  /** The input is mixed case, so it claims an EIP-55 checksum. */
  hasChecksum: boolean;
  /** The EIP-55 form when the syntax is right (even if the input's own checksum is wrong). */
  checksummed: string | null;
  /** Why it is not valid: syntax or checksum; null when valid. */
  reason: string | null;
}

/** Long inputs are echoed shortened: the answer never grows beyond what a real address needs. */
const MAX_ECHO = 64;

/**
 * Syntax and EIP-55 checksum of one address, without any upstream. All-lower and all-upper hex carry no checksum
 * and are valid; mixed case is valid only when it is exactly the checksummed form.
 * @example validateAddress('0x52908400098527886E0F7030069857D2E4169EE7').valid // true
 */
export function validateAddress(input: string): AddressValidity {
  const echo = input.length > MAX_ECHO ? `${input.slice(0, MAX_ECHO)}…` : input;
  if (!EVM_ADDRESS_PATTERN.test(input)) {
    return {
      input: echo,
      valid: false,
      hasChecksum: false,
      checksummed: null,
      reason: 'not 0x followed by 40 hex digits',
    };
  }
  const digits = input.slice(2);
  const hasChecksum = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  const checksummed = getAddress(input.toLowerCase());
  const valid = !hasChecksum || checksummed === input;
  return { input, valid, hasChecksum, checksummed, reason: valid ? null : 'EIP-55 checksum does not match' };
}
