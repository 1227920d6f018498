import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Example } from '../../examples/example.js';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/config.js';
import { liveRefusals } from '../../src/config/live-guard.js';
import { DEMO_X402_RECEIVER } from '../../src/config/public-dev-keys.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { GRAPHIQL_EXAMPLES } from '../../src/http/graphiql-tabs.js';
import { runDemo } from '../../src/server/demo.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const root = join(import.meta.dirname, '..', '..');
const examplesDir = join(root, 'examples');
/** What the typed client's generator and tsc write (git ignores both): not examples. */
const GENERATED = /^typed-client\/(generated|dist)\//;
/** Every file of examples/, as `rest/profile.sh`. */
const EXAMPLE_FILES = readdirSync(examplesDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.\w+$/.test(file) && !GENERATED.test(file))
  .sort();
/** The TypeScript examples' shared helpers and runner: code the examples use, not examples. */
const NOT_EXAMPLES = new Set(['example.ts', 'run-example.ts']);

const accounts = getDevAccounts();
const ADDRESS = /0x[0-9a-fA-F]{40}/;

/** Runs a TypeScript example in this process, as `npm run example` runs it, and returns the lines it printed. */
async function runExample(
  file: string,
  api: string,
  onLine: (line: string) => void | Promise<void> = () => {},
): Promise<string[]> {
  const lines: string[] = [];
  const pending: Promise<void>[] = [];
  const example = (await import(join(examplesDir, file))) as { default: (context: Example) => Promise<void> };
  await example.default({
    api,
    print: (line) => {
      lines.push(line);
      pending.push(Promise.resolve(onLine(line)));
    },
  });
  await Promise.all(pending);
  return lines;
}

/** The JSON documents a curl example printed, one per non-empty line. */
const jsonLines = (output: string): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{') || line.startsWith('['))
    .map((line) => JSON.parse(line));

describe('every example in examples/ runs against a test server and prints what its guide says', () => {
  let server: TestServer;
  /** A second instance on the same store, past its free quota at once: the x402 examples pay there. */
  let paying: TestServer;
  let apiKey: string;
  /** What `npm run demo -- api-key` printed. */
  let demoKeyLines: string[];
  const outputs = new Map<string, string>();
  const checked = new Set<string>();
  const check = (file: string) => {
    checked.add(file);
    return file;
  };

  const storePrefix = testKeyPrefix('examples');

  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, WEBHOOK_POLL_MS: '200' };
    [server, paying] = await Promise.all([
      startTestServer(
        { ...env, ANONYMOUS_DAILY_LIMIT: '100000', ANONYMOUS_PER_MINUTE_LIMIT: '100000' },
        { storePrefix },
      ),
      startTestServer({ ...env, ANONYMOUS_DAILY_LIMIT: '1', ANONYMOUS_PER_MINUTE_LIMIT: '1000' }, { storePrefix }),
    ]);
    // The key api-key.sh calls with comes from the command its guide names, run as a reader runs it.
    const { stdout: demoOut } = await promisify(execFile)('npm', ['run', '--silent', 'demo', '--', 'api-key'], {
      cwd: root,
      env: { ...process.env, API_URL: server.url },
    });
    demoKeyLines = demoOut.trimEnd().split('\n');
    apiKey = /^export API_KEY=(\S+)$/.exec(demoKeyLines.at(-1)!)?.[1] ?? '';

    // Every shell example in one bash process (each script still runs in its own bash).
    // check-instances.sh compares instances: the operators test runs it on pairs of its own.
    const runs: [string, ...string[]][] = EXAMPLE_FILES.filter(
      (file) => file.endsWith('.sh') && file !== 'operators/check-instances.sh',
    ).map((file) => [file]);
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const script = runs
      .map(
        ([file, ...args]) =>
          `echo "@@@ ${file}"; bash ${quote(file)} ${args.map(quote).join(' ')} 2>&1; echo "@@@ exit $?"`,
      )
      .join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-c', script], {
      cwd: examplesDir,
      env: { ...process.env, API_URL: server.url, API_KEY: apiKey },
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const section of stdout.split(/^@@@ (?=\S+\.sh$)/m).slice(1)) {
      const file = section.slice(0, section.indexOf('\n'));
      outputs.set(file, section.slice(file.length + 1));
    }
  });
  afterAll(async () => {
    await Promise.all([server?.close(), paying?.close()]);
  });

  /** A shell example's output without its exit line, after checking it exited 0. */
  function shellOutput(file: string): string {
    const output = outputs.get(check(file));
    expect(output, `${file} did not run`).toBeDefined();
    expect(output, output).toMatch(/@@@ exit 0\n$/);
    return output!.replace(/@@@ exit 0\n$/, '');
  }

  it('rest/*.sh: names, profiles, prices, rate-limit headers, an API key, a batch and an error envelope', () => {
    expect(jsonLines(shellOutput('rest/resolve-name.sh'))).toEqual([
      { name: 'alice.eth', address: accounts[1]!.address },
    ]);
    const [profile] = jsonLines(shellOutput('rest/profile.sh'));
    expect(profile).toMatchObject({
      name: 'alice.eth',
      address: accounts[1]!.address,
      registrant: accounts[1]!.address,
    });
    const [price, batch] = jsonLines(shellOutput('rest/prices.sh'));
    expect(price).toMatchObject({ symbol: 'ETH', price: expect.any(Number) });
    expect((batch as unknown as { symbol: string }[]).map((p) => p.symbol)).toEqual(['ETH', 'BTC', 'USDC']);
    const limits = shellOutput('rest/rate-limits.sh');
    for (const header of [
      'limit',
      'remaining',
      'reset',
      'tier',
      'tier-limit',
      'tier-remaining',
      'global-used',
      'global-limit',
    ]) {
      expect(limits.toLowerCase()).toContain(`x-ratelimit-${header}:`);
    }
    expect(jsonLines(limits)[0]).toMatchObject({ tier: 'anonymous', limit: 100000 });
    const [byKey, keyUsage] = jsonLines(shellOutput('rest/api-key.sh'));
    expect(byKey).toEqual({ name: 'bob.eth', address: accounts[2]!.address });
    expect(keyUsage).toMatchObject({ tier: 'api_key', used: 1, credits: { balance: 0 } });
    const [combined] = jsonLines(shellOutput('rest/batch.sh'));
    expect((combined as { results: { status: number }[] }).results.map((r) => r.status)).toEqual([200, 200, 404]);
    const error = shellOutput('rest/errors.sh');
    expect(jsonLines(error)[0]).toMatchObject({ error: true, code: 'INVALID_PARAMETER', message: expect.any(String) });
    expect(error).toContain('HTTP 400');
  });

  it('npm run demo -- api-key signs in as alice, prints a demo key once to paste, which api-key.sh called with; a second run rotates it', async () => {
    expect(demoKeyLines).toEqual([
      `signed in with Ethereum (SIWE) as alice, dev account #1 ${accounts[1]!.address}`,
      expect.stringMatching(/^created API key "demo key" \S+$/),
      'a DEMO key of the embedded default, shown this once: paste the next line into your shell, then run examples/rest/api-key.sh',
      expect.stringMatching(/^export API_KEY=sk_live_[\w-]{20,}$/),
    ]);
    const lines: string[] = [];
    expect(await runDemo(['api-key'], { env: { API_URL: server.url }, write: (text) => lines.push(text) })).toBe(0);
    const rotated = lines.join('').trimEnd().split('\n');
    expect(rotated[1]).toBe(
      `${demoKeyLines[1]!.replace('created', 'rotated')} (its previous secret is refused from now on)`,
    );
    const newKey = rotated.at(-1)!.slice('export API_KEY='.length);
    expect(newKey).not.toBe(apiKey);
    expect((await server.get('/api/usage', { 'x-api-key': newKey })).status).toBe(200);
    const refused = await server.get('/api/usage', { 'x-api-key': apiKey });
    expect([refused.status, (await refused.json()).code]).toEqual([401, 'INVALID_API_KEY']);
    apiKey = newKey; // the MCP client below calls with the current secret
  });

  it('graphql/*.graphql: each operation (also GraphiQL’s tabs) answers data and no errors; query.sh runs one over GET', async () => {
    const operations = EXAMPLE_FILES.filter((file) => file.endsWith('.graphql'));
    expect(operations.map((file) => file.slice('graphql/'.length, -'.graphql'.length)).sort()).toEqual(
      [...GRAPHIQL_EXAMPLES].sort(),
    );
    for (const file of operations) {
      const query = readFileSync(join(examplesDir, check(file)), 'utf8');
      const res = await server.post('/graphql', { query });
      const body = await res.json();
      expect(body.errors, file).toBeUndefined();
      expect(
        Object.values(body.data).every((value) => value !== null),
        file,
      ).toBe(true);
    }
    const [joined] = jsonLines(shellOutput('graphql/query.sh'));
    expect(joined).toMatchObject({
      data: {
        ensProfile: {
          name: 'alice.eth',
          wallet: { primaryName: 'alice.eth', farcasterUser: { username: 'alice' } },
        },
      },
    });
  });

  it('auth/sign-in.ts: a made-up wallet signs in, creates an API key and is counted on it', async () => {
    const lines = await runExample(check('auth/sign-in.ts'), server.url);
    expect(lines).toEqual([
      expect.stringMatching(/^signed in as 0x[0-9a-fA-F]{40} until \d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^API key \S+: sk_live_[\w-]{4}… \(daily limit: 250\)$/),
      'usage on the key: tier api_key, 0 of 250 used today',
    ]);
  });

  it('ens/*: ethers and viem with no ENS settings answer as REST does; a registered subname resolves at once; the CCIP gateway signs', async () => {
    const ethersLines = await runExample(check('ens/resolve-with-ethers.ts'), server.url);
    expect(ethersLines).toEqual([
      `alice.eth → ${accounts[1]!.address} (REST: ${accounts[1]!.address})`,
      `pay.alice.eth → ${accounts[1]!.address} (REST: ${accounts[1]!.address})`,
      `bob.eth → ${accounts[2]!.address} (REST: ${accounts[2]!.address})`,
      `dave.offchain.eth → ${accounts[7]!.address} (REST: ${accounts[7]!.address})`,
      `demo.base.eth → ${accounts[5]!.address} (REST: ${accounts[5]!.address})`,
      'alice.eth com.twitter: alice',
      `${accounts[1]!.address} ← alice.eth`,
    ]);
    expect(await runExample(check('ens/resolve-with-viem.ts'), server.url)).toEqual([
      `alice.eth → ${accounts[1]!.address} (REST: ${accounts[1]!.address})`,
      `dave.offchain.eth → ${accounts[7]!.address} (REST: ${accounts[7]!.address})`,
      'dave.offchain.eth url: https://dave.example.org',
      `${accounts[2]!.address} ← bob.eth`,
    ]);
    const registered = await runExample(check('ens/register-subname.ts'), server.url);
    const [, name, owner] = /^registered (\S+) to (0x[0-9a-fA-F]{40})$/.exec(registered[0]!) ?? [];
    expect(registered).toEqual([
      `registered ${name} to ${owner}`,
      `ethers: ${name} → ${owner}`,
      'ethers: url = https://guest.example.org',
    ]);
    const [health, answer] = jsonLines(shellOutput('ens/ccip-gateway.sh'));
    expect(health).toMatchObject({ status: 'ok', parents: ['offchain.eth'], signer: expect.stringMatching(ADDRESS) });
    expect(answer).toMatchObject({ data: expect.stringMatching(/^0x/), validUntil: expect.any(Number) });
  });

  it('mcp/*: the client configuration connects; an agent lists the tools and calls one, and pays one past its quota', async () => {
    const config = JSON.parse(readFileSync(join(examplesDir, check('mcp/client-config.json')), 'utf8'));
    const entry = config.mcpServers['chain-identity'];
    expect(entry).toMatchObject({ type: 'http', url: 'http://127.0.0.1:3000/mcp' });
    const client = new Client({ name: 'configured-host', version: '1.0.0' });
    const url = new URL(new URL(entry.url).pathname, server.url);
    // The configuration carries no key (a placeholder one failed every call); with the one its guide says to add:
    expect(entry.headers).toBeUndefined();
    const headers = { 'X-API-Key': apiKey };
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(40);
    await client.close();

    const called = await runExample(check('mcp/call-tool.ts'), server.url);
    expect(called[0]).toMatch(/^\d+ tools, among them .*resolve_ens_name/);
    expect(JSON.parse(called[1]!.slice('get_ens_profile alice.eth: '.length))).toMatchObject({
      name: 'alice.eth',
      address: accounts[1]!.address,
    });

    // The day's one free call on the paying instance (ANONYMOUS_DAILY_LIMIT=1): after it, every call is paid.
    await paying.get('/api/address/checksum/0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    const paid = await runExample(check('mcp/pay-tool.ts'), paying.url);
    expect(paid[0]).toBe(`offer: 10000 USDC units on eip155:8453 to ${DEMO_X402_RECEIVER}`);
    expect(paid[1]).toMatch(new RegExp(`^paid by ${accounts[8]!.address} in 0x[0-9a-f]{64}: \\{"name":"alice.eth"`));
  });

  it('x402/pay-per-call.ts: @x402/fetch pays a priced route past the free quota and reads the settlement', async () => {
    const lines = await runExample(check('x402/pay-per-call.ts'), paying.url);
    expect(lines[0]).toMatch(/^200 \{"symbol":"ETH","price":/);
    expect(lines[1]).toMatch(
      new RegExp(`^paid by ${accounts[8]!.address} on eip155:8453: transaction 0x[0-9a-f]{64}$`),
    );
  });

  it('webhooks/receive-deliveries.ts: verifies a ping, then the chain event `npm run demo -- text` causes', async () => {
    const demo: string[] = [];
    const lines = await runExample(check('webhooks/receive-deliveries.ts'), server.url, async (line) => {
      // What the example asks its reader to do in another terminal, done here in this process.
      if (!line.startsWith('waiting for a chain event: run `npm run demo -- text`')) return;
      expect(await runDemo(['text'], { env: { API_URL: server.url }, write: (text) => demo.push(text) })).toBe(0);
    });
    expect(lines).toEqual([
      expect.stringMatching(/^webhook \S+ sends ens.record_changed of alice.eth to http:\/\/127.0.0.1:\d+\/hook$/),
      expect.stringMatching(/^verified ping \S+$/),
      'waiting for a chain event: run `npm run demo -- text` in another terminal',
      expect.stringMatching(/^verified ens.record_changed: alice.eth description = "set by npm run demo at \d{4}-/),
    ]);
    expect(demo.join('')).toMatch(/^alice.eth text description = /);
  });

  it('live/subscribe-events.ts: prints the events `npm run demo -- text` and `npm run demo -- eth` cause, as they happen', async () => {
    const demo: string[] = [];
    const lines = await runExample(check('live/subscribe-events.ts'), server.url, async (line) => {
      // What the example asks its reader to do in another terminal, done here in this process.
      if (!line.startsWith('subscribed: run `npm run demo -- text`')) return;
      const write = (text: string) => demo.push(text);
      expect(await runDemo(['text'], { env: { API_URL: server.url }, write })).toBe(0);
      expect(await runDemo(['eth'], { env: { API_URL: server.url }, write })).toBe(0);
    });
    expect(lines).toEqual([
      'subscribed: run `npm run demo -- text` and `npm run demo -- eth` in another terminal',
      expect.stringMatching(/^ens.record_changed: alice.eth description = "set by npm run demo at \d{4}-/),
      `wallet.transfer: 10000000000000000 wei of ETH from ${accounts[1]!.address}`,
    ]);
  });

  it('operators/production.env: the production env file, with the two secrets of a secret store, is a configuration npm start accepts', () => {
    const env = Object.fromEntries(
      readFileSync(join(examplesDir, check('operators/production.env')), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z0-9_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.keys(env).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    // Without the secrets it is refused, one line for each; with them it serves.
    expect(liveRefusals(loadConfig(env)).map((line) => line.split(':')[0])).toEqual(['CCIP_SIGNER_KEY', 'JWT_SECRET']);
    const config = loadConfig({ ...env, CCIP_SIGNER_KEY: `0x${'5e'.repeat(32)}`, JWT_SECRET: 's'.repeat(40) });
    expect(liveRefusals(config)).toEqual([]);
    expect(config).toMatchObject({
      redis: { kind: 'single', url: env.REDIS_URL },
      // One balancer that appends to X-Forwarded-For: the client is the address it appended.
      trustProxy: { kind: 'hops', hops: 1 },
      publicBaseUrl: 'https://api.example.com',
    });
    expect(config.chains.ethereum.rpcUrl).toBe(env.ETH_RPC_URL);
  });

  it("operators/check-instances.sh: an instance reading the first one's chain passes; two embedded chains on one store are a mismatch, exit 1", async () => {
    const script = join(examplesDir, check('operators/check-instances.sh'));
    const run = (...urls: string[]) =>
      promisify(execFile)('bash', [script, ...urls]).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    // Two instances on one store, both signing with the operator's CCIP key: the second's Ethereum is the first one's
    // embedded chain (ETH_RPC_URL, which makes its configuration live: it names the secrets a live one needs).
    const ownStore = { storePrefix: testKeyPrefix('check-instances') };
    const env = { REDIS_URL: TEST_REDIS_URL, CCIP_SIGNER_KEY: LIVE_SECRETS.CCIP_SIGNER_KEY };
    const chainHost = await startTestServer(env, ownStore);
    const reader = await startTestServer(
      { ...env, ...LIVE_SECRETS, ETH_RPC_URL: chainHost.localChain!.rpcUrl },
      ownStore,
    ).catch(async (err: Error) => {
      await chainHost.close();
      throw err;
    });
    try {
      const shared = await run(chainHost.url, reader.url);
      expect(shared.stderr).toBe('');
      expect(shared.code).toBe(0);
      expect(shared.stdout).toMatch(
        new RegExp(
          `^${chainHost.url}: health 200, store redis, CCIP signer (0x[0-9a-fA-F]{40}), Ethereum embedded \\(its own\\) at block \\d+\n` +
            `${reader.url}: health 200, store redis, CCIP signer \\1, Ethereum live at block \\d+\n` +
            'all 2 instances share the redis store, CCIP signer 0x[0-9a-fA-F]{40} and one Ethereum chain \\(head \\d+ to \\d+\\)\n$',
        ),
      );
    } finally {
      await Promise.all([reader.close(), chainHost.close()]);
    }
    // Two embedded chains from one snapshot: blocks mined on one of them, which the other never sees, until the
    // second is 5 ahead.
    const head = (at: TestServer) => localChainClients(at.localChain!.rpcUrl).client.getBlockNumber();
    const behind = Number((await head(server)) - (await head(paying)));
    await localChainClients(paying.localChain!.rpcUrl).anvil.mine({ blocks: Math.max(0, behind) + 5 });
    const apart = await run(server.url, paying.url);
    expect(apart.code).toBe(1);
    const heads = [...apart.stdout.matchAll(/at block (\d+)\n/g)].map((m) => Number(m[1]));
    const [low, high] = [Math.min(...heads), Math.max(...heads)];
    expect(high - low).toBeGreaterThan(2);
    expect(apart.stderr).toBe(
      `mismatch: their Ethereum heads are ${high - low} blocks apart (${low} to ${high})\n` +
        `mismatch: 2 of the 2 instances each run an embedded Ethereum chain of their own (${server.url} ${paying.url}): a transaction sent to one chain is unknown to the others; point every instance at one chain with ETH_RPC_URL\n`,
    );
  });

  it('typed-client/*: types generated from schema/ (openapi-typescript, GraphQL Codegen) compile a client with tsc, which calls the server', async () => {
    const dir = join(examplesDir, 'typed-client');
    const run = promisify(execFile);
    // As its guide runs it: generate from the repository root, compile with its tsconfig, run the output.
    await run('bash', [join(examplesDir, check('typed-client/generate.sh'))], { cwd: root });
    check('typed-client/codegen.ts');
    await run(process.execPath, [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(examplesDir, check('typed-client/tsconfig.json')),
    ]);
    check('typed-client/client.ts');
    const { stdout } = await run(process.execPath, [join(dir, 'dist', 'client.js')], {
      env: { ...process.env, API_URL: server.url },
    });
    const alice = accounts[1]!.address;
    expect(stdout).toMatch(
      new RegExp(`^REST: alice.eth → ${alice}\nGraphQL: alice.eth → ${alice}, ETH at \\$\\d+(\\.\\d+)?\n$`),
    );
  });

  it('every file of examples/ was run and checked above: an example added without a check fails here', () => {
    const examples = EXAMPLE_FILES.filter((file) => !NOT_EXAMPLES.has(file));
    expect(examples.length).toBeGreaterThan(15);
    expect(examples.filter((file) => !checked.has(file))).toEqual([]);
  });
});
