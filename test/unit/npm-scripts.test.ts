import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { PART_NAMES } from '../../src/config/part-modes.js';
import { DEMO_ACTION_LIST } from '../../src/embedded/demo-action-list.js';
import { DEMO_ACTIONS } from '../../src/embedded/demo-actions.js';
import { embeddedChainRows, startBanner } from '../../src/server/start-banner.js';
import { SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import { SUBGRAPH_NAMES } from '../../subgraphs/subgraph-names.js';

const root = join(import.meta.dirname, '..', '..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const loader = join(root, 'test', 'helpers', 'ts-loader', 'register.mjs');

/** Every npm script that takes arguments, and how its usage line starts. */
const TAKING_ARGUMENTS: Record<string, string> = {
  start: 'usage: npm start',
  subgraph: 'usage: npm run subgraph -- <',
  supergraph: 'usage: npm run supergraph -- --urls',
  'sources:check': 'usage: npm run sources:check',
  demo: 'usage: npm run demo -- <action>',
  example: 'usage: npm run example -- <name>',
  bench: 'usage: npm run bench',
};

describe('npm scripts', () => {
  it('every script that takes arguments answers --help with its usage and exit 0, starting nothing', async () => {
    const run = promisify(execFile);
    const answers = await Promise.all(
      Object.entries(TAKING_ARGUMENTS).map(async ([name, usage]) => {
        // The script's own command line with --help appended, as `npm run <name> -- --help` runs it; the example
        // runner from source (dist/examples is built by npm ci, not by the tests' global setup).
        const command =
          name === 'example' ? `node --import ${loader} examples/run-example.ts` : scripts[name]!.replace(/^exec /, '');
        const { stdout } = await run('bash', ['-c', `${command} --help`], {
          cwd: root,
          env: { ...process.env, PORT: '1' },
        });
        return [name, stdout, usage] as const;
      }),
    );
    for (const [name, stdout, usage] of answers)
      expect(stdout, name).toMatch(new RegExp(`^${usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const example = answers.find(([name]) => name === 'example')![1];
    expect(example).toContain('  auth/sign-in\n');
    expect(example).not.toContain('run-example');
  });

  it('the lists --help reads before anything loads name exactly what the scripts run: subgraphs, demo actions', () => {
    expect(SUBGRAPH_MODULES.map((m) => m.name)).toEqual([...SUBGRAPH_NAMES]);
    expect(DEMO_ACTIONS.map((a) => a.name)).toEqual(DEMO_ACTION_LIST.map((a) => a.name));
  });

  it('npm run supergraph writes under generated/ by default, which .gitignore keeps out of the checkout', () => {
    expect(readFileSync(join(root, 'src', 'server', 'write-supergraph.ts'), 'utf8')).toContain(
      "const DEFAULT_OUT = 'generated/supergraph.graphql'",
    );
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain('generated/');
  });

  it('the start banner begins with `serving on <url>` and names the docs, GraphiQL, MCP, each part demo or live, each chain and a funded key', () => {
    const banner = startBanner({
      url: 'http://127.0.0.1:3000',
      chains: [
        { name: 'ethereum', chainId: 1, rpcUrl: 'http://127.0.0.1:40001' },
        { name: 'base', chainId: 8453, rpcUrl: 'http://127.0.0.1:40002' },
      ],
      parts: loadConfig({}).parts,
    });
    const lines = banner.trimEnd().split('\n');
    expect(lines[0]).toBe('serving on http://127.0.0.1:3000');
    for (const url of ['/docs', '/graphql', '/mcp', '/api/sources/health'])
      expect(banner).toContain(`http://127.0.0.1:3000${url}`);
    expect(banner).toMatch(/^ {2}parts +ethereum +demo +embedded anvil, chain id 1$/m);
    for (const part of PART_NAMES) expect(banner).toMatch(new RegExp(`^ {2}(parts)? +${part} +demo `, 'm'));
    expect(banner).toMatch(/^ {2}ethereum +http:\/\/127\.0\.0\.1:40001 +embedded anvil, chain id 1$/m);
    expect(banner).toMatch(/^ {2}base +http:\/\/127\.0\.0\.1:40002 +embedded anvil, chain id 8453$/m);
    const [, address] = /dev account +(0x[0-9a-fA-F]{40})/.exec(banner) ?? [];
    const [key] = /0x[0-9a-f]{64}/.exec(banner) ?? [];
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(address);
    // Live chains only: nothing to send transactions to, no key.
    expect(startBanner({ url: 'http://127.0.0.1:3000', chains: [], parts: [] })).not.toMatch(/0x[0-9a-f]{64}/);
  });

  it('the embedded chains a process prints (npm start, npm run subgraph): Ethereum, then Base, each only when it runs', () => {
    const ethereum = { chainId: 1, rpcUrl: 'http://127.0.0.1:40001' };
    const base = { chainId: 8453, rpcUrl: 'http://127.0.0.1:40002' };
    expect(embeddedChainRows({ localChain: ethereum, localFacilitator: { chain: base } })).toEqual([
      { name: 'ethereum', ...ethereum },
      { name: 'base', ...base },
    ]);
    expect(embeddedChainRows({ localChain: undefined, localFacilitator: { chain: base } })).toEqual([
      { name: 'base', ...base },
    ]);
    expect(embeddedChainRows({ localChain: undefined, localFacilitator: undefined })).toEqual([]);
  });
});
