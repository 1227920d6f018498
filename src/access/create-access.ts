import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import type { AppConfig } from '../config/config.js';
import { serviceUnavailable } from '../errors/api-error.js';
import type { AccessTallies } from '../observability/access-tallies.js';
import type { Sources } from '../sources/sources.js';
import type { FacilitatorSource } from '../sources/x402/facilitator-source.js';
import type { Store } from '../store/store.js';
import { type AccessGate, createAccessGate, type DailyLimitResponse, paymentTermsFor } from './access-gate.js';
import { createAccountServices } from './account-services.js';
import { accessLimitsFromConfig } from './caller-limits.js';
import { createCallerIdentifier } from './identify-caller.js';
import { requestsPer } from './quota-refusals.js';
import { createSessionTokens } from './session-tokens.js';
import { type SiweAudience, siweAudience } from './siwe-audience.js';
import type { ContractSignatureCheck } from './verify-siwe.js';
import { createX402Payments, type X402Payments } from './x402-payments.js';

/** ERC-6492: signatures of wallets not deployed yet end with these 32 bytes. */
const ERC6492_MAGIC = '6492649264926492649264926492649264926492649264926492649264926492';

export interface Access {
  /** Identifies and counts every call (REST rows, documents, /graphql). */
  gate: AccessGate;
  /** Sign-in, sessions, keys, credits and usage, for the account subgraph. */
  account: AccountServices;
}

/**
 * EIP-1271 / ERC-6492 contract wallets, checked on Ethereum (the chain challenges name) through its RPC client
 * (the embedded chain by default); absent without one. An RPC failure is a 503, not a refused signature.
 */
function contractSignatureCheck(sources: Sources | undefined): ContractSignatureCheck | undefined {
  const ethereum = sources?.chains.ethereum;
  const client = ethereum?.client;
  if (!ethereum || !client) return undefined;
  return async ({ address, message, signature, chainId }) => {
    if (chainId !== ethereum.chainId) return false;
    const counterfactual = signature.toLowerCase().endsWith(ERC6492_MAGIC);
    let code: Awaited<ReturnType<typeof client.getCode>>;
    try {
      code = await client.getCode({ address });
    } catch {
      throw serviceUnavailable('could not check the contract wallet signature: Ethereum RPC unavailable');
    }
    // No code and no ERC-6492 wrapper: an EOA, whose signature already failed the offline check.
    if (!counterfactual && (code === undefined || code === '0x')) return false;
    // The RPC answered a moment ago: a failure here is the wallet refusing (a revert), not an outage.
    return client.verifyMessage({ address, message, signature }).catch(() => false);
  };
}

/**
 * The access layer from config and the store: one session-token signer, one caller identification shared by the
 * gate and the account fields, the limits of docs/api-contract.md#limits (or the configured ones).
 * @example const access = createAccess({ config, store, sources, listenUrl: () => url }); buildHttpApp({ access: access.gate, … })
 */
export function createAccess(p: {
  config: AppConfig;
  store: Store;
  sources?: Sources;
  onDailyLimit?: DailyLimitResponse;
  /** The x402 facilitator; without one nothing is sold per call and past the daily limit is a 429. */
  facilitator?: FacilitatorSource;
  /** The URL the server listens on, known once it does: SIWE's domain and URI when neither is configured. */
  listenUrl: () => string;
  /** Refusals, x402 offers, settlements and failures, for /metrics. */
  tallies?: AccessTallies;
}): Access {
  const limits = accessLimitsFromConfig(p.config);
  const tokens = createSessionTokens({ store: p.store, configuredSecret: p.config.auth.jwtSecret });
  const identify = createCallerIdentifier({
    store: p.store,
    tokens,
    limits,
    ipv6Prefix: p.config.anonymousIpv6Prefix,
  });
  const payments =
    p.facilitator &&
    createX402Payments({ x402: p.config.x402, store: p.store, facilitator: p.facilitator, tallies: p.tallies });
  const gate = createAccessGate({
    store: p.store,
    identify,
    limits,
    tallies: p.tallies,
    onDailyLimit: p.onDailyLimit ?? (payments && paymentOffer(payments, p.config.x402.defaultPriceUsd)),
    ...(payments ? { payments: { verifier: payments, defaultPriceUsd: p.config.x402.defaultPriceUsd } } : {}),
  });
  let audience: SiweAudience | undefined;
  const account = createAccountServices({
    store: p.store,
    tokens,
    limits,
    siweAudience: () =>
      (audience ??= siweAudience({
        siweDomain: p.config.auth.siweDomain,
        siweUri: p.config.auth.siweUri,
        publicBaseUrl: p.config.publicBaseUrl,
        listenUrl: p.listenUrl(),
      })),
    paymentReceiver: p.config.x402.receiver,
    payments,
    checkContractSignature: contractSignatureCheck(p.sources),
  });
  return { gate, account };
}

/**
 * Past the daily limit, an anonymous or session caller of a row or /graphql operation that is for sale gets the x402
 * offer (402) instead of the 429; what is not for sale (sign-in, key management) keeps the 429.
 */
function paymentOffer(payments: X402Payments, defaultPriceUsd: string): DailyLimitResponse {
  return ({ route, headers, req, limit, retryAfter }) => {
    const terms = paymentTermsFor(req, route, defaultPriceUsd);
    if (!terms) return undefined;
    return payments.offer(terms, {
      message: `Daily limit exceeded: ${requestsPer(limit, 'day')} on the ${route.tier} tier; pay ${terms.priceUsd} USD per request with x402 (USDC on Base), or wait until midnight UTC`,
      extra: { tier: route.tier, limit, retryAfter },
      headers,
    });
  };
}
