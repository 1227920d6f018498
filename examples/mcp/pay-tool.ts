import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Example } from '../example.js';

/** anvil's public test account #8: it holds test USDC on the embedded Base chain. Never use it on a real chain. */
const PAYER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';

/**
 * Past the free quota a priced tool answers an x402 offer instead of data; the agent signs it (USDC on Base,
 * EIP-3009) and calls again with the payment in `_meta`. Run: npm run example -- mcp/pay-tool
 * (to be past the quota at once, start the server with ANONYMOUS_DAILY_LIMIT=1 and make one call first).
 */
export default async function payTool({ api, print }: Example): Promise<void> {
  const client = new Client({ name: 'paying-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)));
  try {
    const call = { name: 'resolve_ens_name', arguments: { name: 'alice.eth' } };
    const first = await client.callTool(call);
    if (!first.isError) {
      print(`within the free quota, no payment: ${JSON.stringify(first.structuredContent)}`);
      return;
    }
    const offer = first.structuredContent as unknown as PaymentRequired;
    print(
      `offer: ${offer.accepts[0]?.amount} USDC units on ${offer.accepts[0]?.network} to ${offer.accepts[0]?.payTo}`,
    );
    const payments = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(PAYER_KEY)));
    const payment = await payments.createPaymentPayload(offer);
    const paid = await client.callTool({ ...call, _meta: { 'x402/payment': payment } });
    const receipt = paid._meta?.['x402/payment-response'] as { transaction: string; payer: string } | undefined;
    print(`paid by ${receipt?.payer} in ${receipt?.transaction}: ${JSON.stringify(paid.structuredContent)}`);
  } finally {
    await client.close();
  }
}
