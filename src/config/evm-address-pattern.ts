/**
 * `0x` and 40 hex digits, any case: the syntax of an EVM address, stated once for every layer (viem's
 * `isAddress(value, { strict: false })` tests the same). It sits in the lowest layer so that config and sources use it
 * as the argument rules above them do; an EIP-55 checksum, where one is wanted, is checked on top of it.
 * @example EVM_ADDRESS_PATTERN.test('0x70997970c51812dc3a010c7d01b50e0d17dc79c8') // true
 */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
