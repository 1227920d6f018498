import { getAddress, isAddressEqual, verifyTypedData } from 'viem';
import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from '../arguments/evm-address.js';
import type { ApiError } from '../errors/api-error.js';
import type { AccessTallies, PaymentFailure } from '../observability/access-tallies.js';
import type { FacilitatorRequest, FacilitatorSource } from '../sources/x402/facilitator-source.js';
import type { Store } from '../store/store.js';
import { USDC_EIP712_DOMAIN } from './payment-catalog.js';
import {
  encodeHeaderJson,
  type PaymentTerms,
  paymentRequired,
  requirementV1,
  requirementV2,
  type X402Settings,
} from './payment-offer.js';

/**
 * A payment as the caller sent it: an HTTP header's raw value and which protocol version's header carried it, or the
 * payment payload object an MCP tool call carries in `_meta["x402/payment"]` (x402's MCP transport).
 */
export type PresentedPayment = HeaderPayment | { header: 'x402/payment'; payload: unknown };

export interface HeaderPayment {
  /** `X-PAYMENT` (x402 v1) or `PAYMENT-SIGNATURE` (x402 v2); header names are case-insensitive. */
  header: 'X-PAYMENT' | 'PAYMENT-SIGNATURE';
  value: string;
}

/** x402's SettlementResponse: what a settled payment bought, for the caller's records. */
export interface PaymentReceipt {
  success: true;
  transaction: string;
  network: string;
  payer: `0x${string}`;
}

/** A verified payment whose nonce is now spent: settle it once the answer is ready, before sending it. */
export interface AuthorizedPayment {
  payer: `0x${string}`;
  /** Unique per payment (the authorizer and its EIP-3009 nonce): a credit purchase's ledger reference. */
  reference: string;
  /**
   * Settles through the facilitator, once; resolves to the settlement transaction and the response headers
   * (`X-PAYMENT-RESPONSE` for v1, `PAYMENT-RESPONSE` for v2). A refused settlement is a 402 and leaves the
   * authorization usable again; no answer is a 503 and keeps it spent (the transaction may have been sent).
   */
  settle(): Promise<{ transaction: string; receipt: PaymentReceipt; headers: Record<string, string> }>;
  /**
   * The call ended without settling (its answer was an error): the nonce is released, so the same authorization may
   * pay again. A no-op once settle() was called; safe to call more than once.
   */
  abandon(): void;
}

export interface X402Payments {
  /**
   * Checks a presented payment against the terms (payee, amount, validity window, EIP-712 signature on USDC's
   * domain), spends its nonce in the store (atomic: once across every instance), and has the facilitator verify it.
   * Throws a 402 offer that names the reason, or a 503 when the facilitator does not answer.
   */
  authorize(payment: PresentedPayment, terms: PaymentTerms): Promise<AuthorizedPayment>;
  /** The 402 offer for these terms (to throw). */
  offer(
    terms: PaymentTerms,
    p: { message: string; extra?: Record<string, unknown>; headers?: Record<string, string> },
  ): ApiError;
}

/** Longest header value worth decoding: a payload is well under 2 KB. */
const MAX_HEADER_CHARS = 8192;
/** x402's facilitators refuse authorizations that expire within 6 s: there would be no time to settle them. */
const MIN_VALIDITY_LEFT_SECONDS = 6;

/** The request headers an x402 payment travels in (v1, v2), lower-case. */
export const PAYMENT_HEADERS = ['x-payment', 'payment-signature'] as const;

/** The payment header a request carries, if any: two property reads, no allocation when there is none. */
export function presentedPayment(headers: Record<string, string | string[] | undefined>): HeaderPayment | undefined {
  const v1 = headers['x-payment'];
  const v2 = headers['payment-signature'];
  if (v1 === undefined && v2 === undefined) return undefined;
  // Two payments, or one header sent twice, are ambiguous: an empty value is refused as a malformed payment.
  if (v1 !== undefined && v2 !== undefined) return { header: 'X-PAYMENT', value: '' };
  const value = v1 ?? v2;
  return {
    header: v1 !== undefined ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE',
    value: typeof value === 'string' ? value : '',
  };
}

const uintString = z.string().regex(/^\d{1,78}$/);
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const address = z.string().regex(EVM_ADDRESS_PATTERN);
const exactEvmPayload = z.object({
  signature: z.string().regex(/^0x(?:[0-9a-fA-F]{2})+$/),
  authorization: z.object({
    from: address,
    to: address,
    value: uintString,
    validAfter: uintString,
    validBefore: uintString,
    nonce: hex32,
  }),
});
const paymentV1 = z.object({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactEvmPayload,
});
const paymentV2 = z
  .object({
    x402Version: z.literal(2),
    accepted: z
      .object({ scheme: z.string(), network: z.string(), amount: z.string(), asset: z.string(), payTo: z.string() })
      .passthrough(),
    payload: exactEvmPayload,
  })
  .passthrough();
const paymentPayload = z.discriminatedUnion('x402Version', [paymentV1, paymentV2]);
type DecodedPayment = z.infer<typeof paymentPayload>;

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

/** A refused payment: x402's machine reason and a sentence for people. */
class PaymentRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON payment payload a header carries as base64. */
function headerJson(value: string): unknown {
  if (value === '' || value.length > MAX_HEADER_CHARS)
    throw new PaymentRefused('invalid_payload', 'send exactly one payment header, base64 of the x402 payment payload');
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    throw new PaymentRefused('invalid_payload', 'the payment header is not base64 of a JSON payment payload');
  }
}

function decode(payment: PresentedPayment): DecodedPayment {
  const json = payment.header === 'x402/payment' ? payment.payload : headerJson(payment.value);
  const parsed = paymentPayload.safeParse(json);
  if (!parsed.success) {
    const version = (json as { x402Version?: unknown } | null)?.x402Version;
    if (version !== 1 && version !== 2)
      throw new PaymentRefused('invalid_x402_version', 'x402Version must be 1 (X-PAYMENT) or 2 (PAYMENT-SIGNATURE)');
    throw new PaymentRefused(
      'invalid_payload',
      'the payment payload is not an exact EVM payment (signature and EIP-3009 authorization)',
    );
  }
  return parsed.data;
}

/**
 * x402 per-request payments: local checks first (cheap, no I/O), then the spent-nonce record in the store, then the
 * facilitator's verify; settlement once the answer is ready (x402 `exact`: verify → run → settle → respond).
 * @example const payments = createX402Payments({ x402: config.x402, store, facilitator })
 */
export function createX402Payments(p: {
  x402: X402Settings;
  store: Pick<Store, 'markPaymentNonceSpent' | 'releasePaymentNonce'>;
  facilitator: FacilitatorSource;
  now?: () => number;
  /** Offers, settlements and failures, for /metrics. */
  tallies?: AccessTallies;
}): X402Payments {
  const { x402, tallies } = p;
  const now = p.now ?? Date.now;
  const v2Network = `eip155:${x402.chainId}`;
  const offer: X402Payments['offer'] = (terms, o) => {
    tallies?.offerMade();
    return paymentRequired(x402, terms, o);
  };
  const refuse = (terms: PaymentTerms, err: PaymentRefused, stage: PaymentFailure): never => {
    tallies?.paymentFailed(stage);
    throw paymentRequired(x402, terms, { message: `Payment refused: ${err.message}`, reason: err.reason });
  };
  /** A store or facilitator that did not answer: counted, then its 503 goes on. */
  const unavailable = (err: unknown): never => {
    tallies?.paymentFailed('unavailable');
    throw err;
  };

  /** Everything that can be checked without I/O; returns the facilitator request for this payment. */
  const check = async (decoded: DecodedPayment, terms: PaymentTerms, atMs: number): Promise<FacilitatorRequest> => {
    const required = BigInt(requirementV1(x402, terms).maxAmountRequired);
    const { authorization, signature } = decoded.payload;
    let request: FacilitatorRequest;
    if (decoded.x402Version === 1) {
      if (decoded.scheme !== 'exact')
        throw new PaymentRefused('unsupported_scheme', 'only the exact scheme is accepted');
      if (decoded.network !== x402.network)
        throw new PaymentRefused('invalid_network', `payments settle on ${x402.network}`);
      request = { x402Version: 1, paymentPayload: decoded, paymentRequirements: { ...requirementV1(x402, terms) } };
    } else {
      const { accepted } = decoded;
      if (accepted.scheme !== 'exact')
        throw new PaymentRefused('unsupported_scheme', 'only the exact scheme is accepted');
      if (accepted.network !== v2Network)
        throw new PaymentRefused('invalid_network', `payments settle on ${v2Network}`);
      if (!EVM_ADDRESS_PATTERN.test(accepted.asset) || !isAddressEqual(accepted.asset as `0x${string}`, x402.asset)) {
        throw new PaymentRefused('invalid_payment_requirements', `the asset must be USDC (${x402.asset})`);
      }
      request = { x402Version: 2, paymentPayload: decoded, paymentRequirements: { ...requirementV2(x402, terms) } };
    }
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
    // 65 bytes is an EOA's signature, checked here; longer ones (EIP-1271 / ERC-6492 smart wallets) need the chain: the facilitator checks them.
    if (signature.length === 132) {
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
    } else if (signature.length < 132) {
      throw new PaymentRefused('invalid_exact_evm_payload_signature', 'the signature is shorter than 65 bytes');
    }
    return request;
  };

  return {
    offer,
    async authorize(payment, terms) {
      const at = now();
      let decoded: DecodedPayment;
      let request: FacilitatorRequest;
      try {
        decoded = decode(payment);
        request = await check(decoded, terms, at);
      } catch (err) {
        if (err instanceof PaymentRefused) return refuse(terms, err, 'check');
        throw err;
      }
      const { authorization } = decoded.payload;
      const payer = getAddress(authorization.from);
      const reference = `x402:${x402.chainId}:${payer.toLowerCase()}:${authorization.nonce.toLowerCase()}`;
      // Spent before anything runs: of concurrent requests with one authorization, on any instance, one goes on.
      const first = await p.store
        .markPaymentNonceSpent({ key: reference, expiresAt: Number(authorization.validBefore) * 1000, now: at })
        .catch(unavailable);
      if (!first)
        return refuse(
          terms,
          new PaymentRefused(
            'duplicate_settlement',
            'this payment authorization was already used (replays are refused)',
          ),
          'replay',
        );

      // A payment refused before settlement never reached the chain: its authorization stays the payer's to use.
      const release = () => p.store.releasePaymentNonce(reference).catch(() => undefined);
      const verified = await p.facilitator.verify(request).catch(async (err: unknown) => {
        await release();
        return unavailable(err);
      });
      if (!verified.isValid) {
        await release();
        return refuse(
          terms,
          new PaymentRefused(
            verified.invalidReason ?? 'invalid_payment',
            `the facilitator refused the payment (${verified.invalidReason ?? 'no reason given'})`,
          ),
          'verify',
        );
      }
      const responseHeader =
        payment.header === 'X-PAYMENT' || decoded.x402Version === 1 ? 'X-PAYMENT-RESPONSE' : 'PAYMENT-RESPONSE';
      let ended = false;
      return {
        payer,
        reference,
        abandon() {
          if (ended) return;
          ended = true;
          void release();
        },
        async settle() {
          if (ended) throw new Error('a payment is settled once, and not after it was abandoned');
          ended = true;
          const answer = await p.facilitator.settle(request).catch(unavailable);
          if (!answer.success) {
            await release();
            return refuse(
              terms,
              new PaymentRefused(
                answer.errorReason ?? 'unexpected_settle_error',
                `settlement failed (${answer.errorReason ?? 'no reason given'}); nothing was charged and no data is sent`,
              ),
              'settle',
            );
          }
          tallies?.settled();
          const network = decoded.x402Version === 1 ? x402.network : v2Network;
          const receipt: PaymentReceipt = {
            success: true,
            transaction: answer.transaction,
            network: answer.network || network,
            payer,
          };
          return {
            transaction: answer.transaction,
            receipt,
            headers: { [responseHeader]: encodeHeaderJson(receipt), 'Cache-Control': 'no-store' },
          };
        },
      };
    },
  };
}
