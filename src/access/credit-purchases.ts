import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import { CREDIT_PACKAGES, creditPackage, packagePriceUsd } from '../arguments/credit-package.js';
import { ApiError, notFound } from '../errors/api-error.js';
import type { AccountServicesParams } from './account-services-params.js';
import { requireSession } from './require-session.js';

export type CreditPurchases = Pick<AccountServices, 'creditPackages' | 'purchaseCredits'>;

/**
 * Credit packages and their purchase with x402: an offer without a payment, a credit once per settled payment
 * (docs/api-contract.md#credit-packages).
 * @example const { purchaseCredits } = creditPurchases({ ...params, now: Date.now })
 */
export function creditPurchases(p: AccountServicesParams & { now: () => number }): CreditPurchases {
  const { store, now } = p;

  const ownKey = async (wallet: string, id: string): Promise<void> => {
    const key = await store.getApiKey(id);
    // Another wallet's key is as absent as a deleted one: ids reveal nothing.
    if (!key || key.wallet !== wallet.toLowerCase()) throw notFound('no API key with this id belongs to this wallet');
  };

  return {
    creditPackages() {
      return { packages: [...CREDIT_PACKAGES] };
    },

    async purchaseCredits(caller, { id, packageId, payment, resource }) {
      const { wallet } = requireSession(caller);
      const pkg = creditPackage(packageId);
      await ownKey(wallet, id);
      if (p.payments) {
        const terms = {
          priceUsd: packagePriceUsd(pkg),
          resource,
          description: `${pkg.credits} API credits (${pkg.id}) for API key ${id}`,
          mimeType: 'application/json',
        };
        if (!payment) {
          throw p.payments.offer(terms, {
            message: `Buying ${pkg.credits} credits costs ${pkg.price}: pay it with x402 (USDC on Base) and send the request again with the payment`,
            extra: { packageId: pkg.id, credits: pkg.credits },
          });
        }
        const authorized = await p.payments.authorize(payment, terms);
        const { transaction } = await authorized.settle();
        // The payment's reference (payer and EIP-3009 nonce) makes the credit once-only, whatever is retried.
        const credited = await store.addCredits({
          keyId: id,
          amount: pkg.credits,
          reference: authorized.reference,
          now: now(),
        });
        return {
          success: true,
          keyId: id,
          packageId: pkg.id,
          creditsAdded: credited.applied ? pkg.credits : 0,
          balance: credited.balance,
          transaction,
        };
      }
      // No facilitator configured: no payment can be verified, so none is taken and no credit is added.
      throw new ApiError(
        'PAYMENT_REQUIRED',
        `Buying ${pkg.credits} credits costs ${pkg.price} paid with x402; this server has no x402 facilitator to verify payments, so no credits were added`,
        { priceUSD: packagePriceUsd(pkg), recipient: p.paymentReceiver, packageId: pkg.id, credits: pkg.credits },
      );
    },
  };
}
