import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { routePriceUsd } from '../../src/access/payment-catalog.js';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/config.js';
import { toolName } from '../../src/http/mcp/agent-tools.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');

describe('the README and .env.example say what the code does', () => {
  it('the README names every route of the table', () => {
    const missing = ROUTE_TABLE.rows
      .filter((row) => !readme.includes(`\`${row.path}\``))
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it("the README's route table shows each row's tier and price (— for a row not sold per call)", () => {
    const shown = new Map(
      [...readme.matchAll(/^\| ([A-Z]+) +\| `([^`]+)` +\| ([a-z]+) +\| (—|default|\$[\d.]+) +\|/gm)].map((m) => [
        `${m[1]} ${m[2]}`,
        `${m[3]} ${m[4]}`,
      ]),
    );
    // The webhook rows have their own table in _Webhooks_ (method, path, what).
    const listed = ROUTE_TABLE.rows.filter((row) => !row.path.startsWith('/api/webhooks'));
    expect(shown.size).toBe(listed.length);
    for (const row of listed) {
      const price = routePriceUsd(row, 'default') === undefined ? '—' : row.price ? `$${row.price}` : 'default';
      expect(shown.get(`${row.method} ${row.path}`), `${row.method} ${row.path}`).toBe(`${row.tier} ${price}`);
    }
  });

  it("every environment variable the config reads is in .env.example and has a row of the README's Configuration table", () => {
    expect(CONFIG_VARIABLES.filter((name) => !new RegExp(`^${name}=`, 'm').test(envExample))).toEqual([]);
    const start = readme.indexOf('\n## Configuration\n');
    const section = readme.slice(start, readme.indexOf('\n#', start + 1));
    // A row's first cell names its variables: | `ANONYMOUS_DAILY_LIMIT`, `ANONYMOUS_PER_MINUTE_LIMIT` | …
    const rowNames = [...section.matchAll(/^\| ([^|]+)\|/gm)].flatMap((row) =>
      [...row[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((name) => name[1]!),
    );
    expect(CONFIG_VARIABLES.filter((name) => !rowNames.includes(name))).toEqual([]);
    expect(rowNames.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it("the README's Agents section lists every MCP tool with what it costs past the free quota", () => {
    const defaultPrice = loadConfig({}).x402.defaultPriceUsd;
    const listed = new Map(
      [...readme.matchAll(/^\| `([a-z0-9_]+)` +\| `(?:GET|POST) [^`]+` +\| \w+ +\| (free|\$[\d.]+) +\|$/gm)].map(
        (m) => [m[1], m[2]],
      ),
    );
    const tools = ROUTE_TABLE.rows.filter(
      (row) => row.kind === 'operation' && (row.method === 'GET' || row.method === 'POST') && row.tier !== 'auth',
    );
    expect(tools.length).toBeGreaterThan(40);
    for (const row of tools) {
      const price = routePriceUsd(row, defaultPrice);
      expect(listed.get(toolName(row.id)), row.id).toBe(price === undefined ? 'free' : `$${price}`);
    }
    expect(listed.size).toBe(tools.length);
  });
});
