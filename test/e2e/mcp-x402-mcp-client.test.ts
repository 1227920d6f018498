import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { experimental_createMCPClient, type experimental_MCPClient } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPayment } from 'x402-mcp';
import { USDC_ON_BASE } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL, RECEIVER, usdcBalance } from '../helpers/x402-payer.js';

/** What a tool of the AI SDK's MCP client answers: the MCP CallToolResult. */
interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
type Tools = Record<string, { execute(args: unknown, options: unknown): Promise<unknown> }>;

/** The AI SDK calls a tool with the model's call id and conversation; the tools read neither. */
const CALL = { toolCallId: 'call-1', messages: [] };

describe('the npm x402-mcp client (x402 v1, its payment in _meta["x402.payment"]) pays a tool call past the quota', () => {
  let server: TestServer;
  let mcp: experimental_MCPClient;
  let tools: Tools;
  const payer = getDevAccounts()[6]!;

  beforeAll(async () => {
    server = await startTestServer(ONE_FREE_CALL);
    // As its README builds it: the AI SDK's MCP client, wrapped by withPayment with the agent's account and network.
    mcp = await experimental_createMCPClient({
      transport: new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)),
    });
    const paying = await withPayment(mcp, { account: payer, network: 'base' });
    tools = (await paying.tools()) as unknown as Tools;
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('offers every tool with an optional paymentAuthorization, and adds its generatePaymentAuthorization tool', () => {
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['resolve_ens_name', 'generatePaymentAuthorization']));
  });

  it('reads the v1 offer from the error result, signs it with its own tool and pays: the data, the receipt under x402.payment-response, USDC moved', async () => {
    const resolve = tools.resolve_ens_name!;
    expect(((await resolve.execute({ name: 'alice.eth' }, CALL)) as ToolResult).isError).toBeFalsy(); // the free call
    const refused = (await resolve.execute({ name: 'alice.eth' }, CALL)) as ToolResult;
    expect(refused.isError).toBe(true);
    // The agent reads the offer as x402 v1 (what x402-mcp's servers answer): the second text of the result.
    const offer = JSON.parse(refused.content[1]!.text) as { x402Version: number; accepts: Record<string, unknown>[] };
    expect(offer).toMatchObject({
      x402Version: 1,
      error: 'invalid_payment',
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: '10000',
          resource: 'mcp://tool/resolve_ens_name',
          payTo: RECEIVER,
          asset: USDC_ON_BASE,
        },
      ],
    });
    const { paymentAuthorization } = (await tools.generatePaymentAuthorization!.execute(
      { paymentRequirements: offer.accepts[0] },
      CALL,
    )) as { paymentAuthorization: string };
    const before = await usdcBalance(server, RECEIVER);

    const paid = (await resolve.execute({ name: 'alice.eth', paymentAuthorization }, CALL)) as ToolResult;
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toEqual({ name: 'alice.eth', address: getDevAccounts()[1]!.address });
    expect(paid._meta?.['x402.payment-response']).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: 'base',
      payer: payer.address,
    });
    expect((await usdcBalance(server, RECEIVER)) - before).toBe(10000n);

    // The same authorization again is a spent one: refused with the reason, as an offer to pay anew.
    const replay = (await resolve.execute({ name: 'alice.eth', paymentAuthorization }, CALL)) as ToolResult;
    expect(replay.isError).toBe(true);
    expect(JSON.parse(replay.content[1]!.text)).toMatchObject({ x402Version: 1, error: 'duplicate_settlement' });
  });
});
