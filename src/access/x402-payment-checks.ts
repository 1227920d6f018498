import { isAddressEqual, verifyTypedData } from 'viem';
import { EVM_ADDRESS_PATTERN } from '../arguments/evm-address.js';
import type { FacilitatorRequest } from '../sources/x402/facilitator-source.js';
import { USDC_EIP712_DOMAIN } from './payment-catalog.js';
import { type PaymentTerms, requirementV1, requirementV2, type X402Settings } from './payment-offer.js';
import { type DecodedPayment, PaymentRefused } from './x402-payment-payload.js';

/** x402's facilitators refuse authorizations that expire within 6 s: there would be no time to settle them. */
const MIN_VALIDITY_LEFT_SECONDS = 6;

/** An EOA's 65-byte signature as 0x and hex. */
const EOA_SIGNATURE_CHARS = 132;

const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The CAIP-2 network x402 v2 names the payment chain by. */
export const v2NetworkOf = (x402: X402Settings): string => `eip155:${x402.chainId}`;

/**
 * Everything about a payment that can be checked without I/O: its scheme and network, the payee, the amount, the
 * validity window and an EOA's EIP-712 signature on USDC's domain. Returns the facilitator request for it; throws a
 * {@link PaymentRefused} naming the first rule it breaks.
 * @example const request = await checkPayment(x402, decodePayment(presented), terms, Date.now())
 */
export async function checkPayment(
  x402: X402Settings,
  decoded: DecodedPayment,
  terms: PaymentTerms,
  atMs: number,
): Promise<FacilitatorRequest> {
  const request = facilitatorRequest(x402, decoded, terms);
  const value = checkAuthorization(x402, decoded, terms, atMs);
  await checkSignature(x402, decoded, value);
  return request;
}

/** The request the facilitator verifies and settles, once the payment's scheme, network and asset are ours. */
function facilitatorRequest(x402: X402Settings, decoded: DecodedPayment, terms: PaymentTerms): FacilitatorRequest {
  if (decoded.x402Version === 1) {
    if (decoded.scheme !== 'exact') throw new PaymentRefused('unsupported_scheme', 'only the exact scheme is accepted');
    if (decoded.network !== x402.network)
      throw new PaymentRefused('invalid_network', `payments settle on ${x402.network}`);
    return { x402Version: 1, paymentPayload: decoded, paymentRequirements: { ...requirementV1(x402, terms) } };
  }
  const { accepted } = decoded;
  const v2Network = v2NetworkOf(x402);
  if (accepted.scheme !== 'exact') throw new PaymentRefused('unsupported_scheme', 'only the exact scheme is accepted');
  if (accepted.network !== v2Network) throw new PaymentRefused('invalid_network', `payments settle on ${v2Network}`);
  if (!EVM_ADDRESS_PATTERN.test(accepted.asset) || !isAddressEqual(accepted.asset as `0x${string}`, x402.asset)) {
    throw new PaymentRefused('invalid_payment_requirements', `the asset must be USDC (${x402.asset})`);
  }
  return { x402Version: 2, paymentPayload: decoded, paymentRequirements: { ...requirementV2(x402, terms) } };
}

/** The authorization pays us enough, and is valid now and long enough to settle; returns its value. */
function checkAuthorization(x402: X402Settings, decoded: DecodedPayment, terms: PaymentTerms, atMs: number): bigint {
  const { authorization } = decoded.payload;
  const required = BigInt(requirementV1(x402, terms).maxAmountRequired);
  if (!isAddressEqual(authorization.to as `0x${string}`, x402.receiver)) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_recipient_mismatch',
      `the authorization must pay ${x402.receiver}`,
    );
  }
  const value = BigInt(authorization.value);
  // v1's requirement is a maximum the client may not exceed by less ("at least"); v2's `amount` is exact.
  if (decoded.x402Version === 1 ? value < required : value !== required) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_value',
      `the authorization's value is ${value} USDC units; this costs ${required} (${terms.priceUsd} USD)${decoded.x402Version === 2 ? ', exactly' : ''}`,
    );
  }
  const nowSeconds = BigInt(Math.floor(atMs / 1000));
  if (BigInt(authorization.validAfter) > nowSeconds) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_valid_after',
      'the authorization is not valid yet (validAfter is in the future)',
    );
  }
  if (BigInt(authorization.validBefore) < nowSeconds + BigInt(MIN_VALIDITY_LEFT_SECONDS)) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_valid_before',
      'the authorization has expired (validBefore has passed or is too close)',
    );
  }
  return value;
}

/**
 * 65 bytes is an EOA's signature, checked here; longer ones (EIP-1271 / ERC-6492 smart wallets) need the chain: the
 * facilitator checks them.
 */
async function checkSignature(x402: X402Settings, decoded: DecodedPayment, value: bigint): Promise<void> {
  const { authorization, signature } = decoded.payload;
  if (signature.length < EOA_SIGNATURE_CHARS)
    throw new PaymentRefused('invalid_exact_evm_payload_signature', 'the signature is shorter than 65 bytes');
  if (signature.length > EOA_SIGNATURE_CHARS) return;
  const valid = await verifyTypedData({
    address: authorization.from as `0x${string}`,
    domain: { ...USDC_EIP712_DOMAIN, chainId: x402.chainId, verifyingContract: x402.asset },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from as `0x${string}`,
      to: authorization.to as `0x${string}`,
      value,
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as `0x${string}`,
    },
    signature: signature as `0x${string}`,
  }).catch(() => false);
  if (!valid) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_signature',
      "the signature is not the payer's EIP-712 TransferWithAuthorization signature for USDC on Base",
    );
  }
}
