import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Example } from '../example.js';

/**
 * An agent connects to POST /mcp with the MCP SDK, lists the tools and calls one.
 * Run: npm run example -- mcp/call-tool
 */
export default async function callTool({ api, print }: Example): Promise<void> {
  const client = new Client({ name: 'example-agent', version: '1.0.0' });
  // An API key, when you have one, goes in the HTTP headers: { requestInit: { headers: { 'X-API-Key': key } } }.
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)));
  try {
    const { tools } = await client.listTools();
    print(
      `${tools.length} tools, among them ${tools
        .map((tool) => tool.name)
        .filter((name) => name.includes('ens'))
        .join(', ')}`,
    );
    const result = await client.callTool({ name: 'get_ens_profile', arguments: { name: 'alice.eth' } });
    print(`get_ens_profile alice.eth: ${JSON.stringify(result.structuredContent)}`);
  } finally {
    await client.close();
  }
}
