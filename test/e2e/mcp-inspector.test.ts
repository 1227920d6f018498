import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL } from '../helpers/x402-payer.js';

const run = promisify(execFile);
/** MCP Inspector's CLI (the `--cli` mode of `npx @modelcontextprotocol/inspector`), run as a host would run it. */
const INSPECTOR_CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js');

/** `tools/call` through the Inspector CLI: its JSON output, or the error it exits with. */
async function inspectorCall(server: TestServer, tool: string, args: Record<string, string>) {
  const argv = [
    INSPECTOR_CLI,
    `${server.url}/mcp`,
    '--transport',
    'http',
    '--method',
    'tools/call',
    '--tool-name',
    tool,
  ];
  for (const [k, v] of Object.entries(args)) argv.push('--tool-arg', `${k}=${v}`);
  try {
    // Run from its build folder: it finds its own package.json relative to the working directory.
    const { stdout } = await run(process.execPath, argv, { timeout: 90_000, cwd: dirname(INSPECTOR_CLI) });
    return { ok: true as const, result: JSON.parse(stdout) };
  } catch (err) {
    return { ok: false as const, error: `${(err as { stderr?: string }).stderr ?? err}` };
  }
}

describe('MCP Inspector (CLI) calls a priced tool past the free quota and shows the x402 offer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(ONE_FREE_CALL);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the first call answers the data; the next one the PaymentRequired (isError), not a -32602 failure', async () => {
    const free = await inspectorCall(server, 'resolve_ens_name', { name: 'alice.eth' });
    expect(free.ok && free.result.structuredContent, JSON.stringify(free)).toMatchObject({ name: 'alice.eth' });
    const priced = await inspectorCall(server, 'resolve_ens_name', { name: 'alice.eth' });
    expect(priced.ok, JSON.stringify(priced)).toBe(true);
    if (!priced.ok) return;
    expect(priced.result.isError).toBe(true);
    expect(PaymentRequiredV2Schema.safeParse(priced.result.structuredContent).success).toBe(true);
    expect(priced.result.structuredContent).toMatchObject({ resource: { url: 'mcp://tool/resolve_ens_name' } });
  });
});
