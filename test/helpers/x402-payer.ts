import { authorizationTypes } from '@x402/evm';
import { type Address, createPublicClient, erc20Abi, http, type LocalAccount, toHex } from 'viem';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { DEMO_X402_RECEIVER } from '../../src/config/public-dev-keys.js';
import type { TestServer } from './test-server.js';

/** Where the embedded default's payments go: the demo receiver, whose key nobody holds. */
export const RECEIVER = DEMO_X402_RECEIVER;
/** One free call a day: the second one is past the free quota. */
export const ONE_FREE_CALL = { ANONYMOUS_DAILY_LIMIT: '1', ANONYMOUS_PER_MINUTE_LIMIT: '1000' };

export const decodeHeader = (value: string | null): Record<string, unknown> =>
  JSON.parse(Buffer.from(value ?? '', 'base64').toString('utf8'));
export const encodeHeader = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');

/** A fetch that remembers the headers of every request it sends (to replay a payment). */
export function recordingFetch(): { fetch: typeof fetch; sent: Headers[] } {
  const sent: Headers[] = [];
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(new Headers(request.headers));
    return fetch(request);
  }) as typeof fetch;
  return { fetch: recording, sent };
}

/** USDC balance on the embedded Base chain the local facilitator settles on. */
export function usdcBalance(server: TestServer, owner: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(server.localFacilitator!.chain.rpcUrl, { retryCount: 0 }) });
  return client.readContract({ address: USDC_ON_BASE, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

export interface AuthorizationFields {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: `0x${string}`;
}

/**
 * An EIP-3009 TransferWithAuthorization on USDC's Base domain signed by hand: by default `value` to the receiver, valid
 * from a minute ago for a minute, with a fresh nonce. The EIP-3009 types come from x402's reference client
 * (@x402/evm), not from the server under test.
 */
export async function signedAuthorization(
  payer: LocalAccount,
  fields: Partial<AuthorizationFields> & { value: bigint },
  signer: LocalAccount = payer,
): Promise<{ signature: `0x${string}`; authorization: Record<keyof AuthorizationFields, string> }> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization: AuthorizationFields = {
    from: payer.address,
    to: RECEIVER,
    validAfter: now - 60n,
    validBefore: now + 60n,
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    ...fields,
  };
  const signature = await signer.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC_ON_BASE },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const asStrings = Object.fromEntries(Object.entries(authorization).map(([k, v]) => [k, String(v)]));
  return { signature, authorization: asStrings as Record<keyof AuthorizationFields, string> };
}

/** An x402 v1 X-PAYMENT header signed by hand (signedAuthorization), to send exactly the payment a test needs. */
export async function v1PaymentHeader(
  payer: LocalAccount,
  fields: Partial<AuthorizationFields> & { value: bigint },
  signer: LocalAccount = payer,
): Promise<string> {
  return encodeHeader({
    x402Version: 1,
    scheme: 'exact',
    network: 'base',
    payload: await signedAuthorization(payer, fields, signer),
  });
}
