import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import type { Example } from '../example.js';

/** anvil's public test account #8: it holds test USDC on the embedded Base chain. Never use it on a real chain. */
const PAYER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';

/**
 * A fetch that pays: past the free quota a priced route answers 402 with an offer; @x402/fetch signs a USDC
 * authorization on Base and retries, and the route answers the data with the settlement in PAYMENT-RESPONSE.
 * Run: npm run example -- x402/pay-per-call (to pay at once, start the server with
 * ANONYMOUS_DAILY_LIMIT=1 and make one call first).
 */
export default async function payPerCall({ api, print }: Example): Promise<void> {
  const payer = privateKeyToAccount(PAYER_KEY);
  const pay = wrapFetchWithPayment(fetch, new x402Client().register('eip155:8453', new ExactEvmScheme(payer)));
  const res = await pay(`${api}/api/price/ETH`);
  print(`${res.status} ${await res.text()}`);
  const settlement = res.headers.get('payment-response');
  if (settlement === null) {
    print('within the free quota: nothing was paid');
    return;
  }
  const receipt = JSON.parse(Buffer.from(settlement, 'base64').toString('utf8'));
  print(`paid by ${receipt.payer} on ${receipt.network}: transaction ${receipt.transaction}`);
}
