import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { RouteTable } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { routePriceUsd } from '../access/payment-catalog.js';
import { loadConfig } from '../config/config.js';
import { projectRoot } from '../config/project-root.js';
import { DEMO_ACTION_LIST, DEMO_COMMANDS } from '../embedded/demo-action-list.js';
import { configurationTableMarkdown, goingLiveChecklistMarkdown } from './config-docs.js';
import { layerMapText, PACKAGE_RULES } from './layer-map.js';
import { markdownTable } from './markdown-table.js';
import { startBanner } from './start-banner.js';

/**
 * The parts of docs/ that are not written by hand: tables generated from the route table, and the examples of
 * examples/ included whole. In a document they sit between markers, which `npm run docs:write` fills in and the docs
 * test compares:
 *
 *     <!-- generated: route-table -->…<!-- /generated -->
 *     <!-- include: examples/rest/profile.sh -->…<!-- /include -->
 */
const BLOCK = /(<!-- (generated|include): (\S+) -->\n)[\s\S]*?(<!-- \/\2 -->)/g;

/**
 * Every documented route with its tier and price per call: `default` is X402_DEFAULT_PRICE_USD, `—` a route not sold
 * per call (free and Auth-tier rows).
 * @example routeTableMarkdown().split('\n')[0] // '| method | path | tier | price | what |'
 */
export function routeTableMarkdown(routes: RouteTable = ROUTE_TABLE): string {
  return markdownTable(
    ['method', 'path', 'tier', 'price', 'what'],
    routes.rows.map((row) => {
      const price = routePriceUsd(row, 'default') === undefined ? '—' : row.price ? `$${row.price}` : 'default';
      return [row.method, `\`${row.path}\``, row.tier, price, row.summary];
    }),
  );
}

/**
 * Every MCP tool: each documented GET or POST operation outside the Auth tier, and what a call costs past the
 * caller's free quota at the default price.
 * @example mcpToolTableMarkdown().includes('`resolve_ens_name`') // true
 */
export function mcpToolTableMarkdown(routes: RouteTable = ROUTE_TABLE): string {
  const defaultPrice = loadConfig({}).x402.defaultPriceUsd;
  const tools = routes.rows.flatMap((row) => (row.kind === 'operation' && row.tool !== undefined ? [row] : []));
  return markdownTable(
    ['tool', 'runs', 'tier', 'past the free quota'],
    tools.map((row) => {
      const price = routePriceUsd(row, defaultPrice);
      return [`\`${row.tool}\``, `\`${row.method} ${row.path}\``, row.tier, price === undefined ? 'free' : `$${price}`];
    }),
  );
}

/** What `npm start` prints, with the chains' ports of one start (they change with every start). */
function startBannerSample(): string {
  const banner = startBanner({
    url: 'http://127.0.0.1:3000',
    chains: [
      { name: 'ethereum', chainId: 1, rpcUrl: 'http://127.0.0.1:41299' },
      { name: 'base', chainId: 8453, rpcUrl: 'http://127.0.0.1:41301' },
    ],
    parts: loadConfig({}).parts,
  });
  return `\`\`\`\n${banner}\`\`\``;
}

/** The `npm run demo` actions, as their --help lists them. */
function demoActionsBlock(): string {
  const rows = [
    ...DEMO_ACTION_LIST.map((a) => [a.usage, a.description]),
    ...DEMO_COMMANDS.map((c) => [c.name, c.description]),
  ];
  const width = Math.max(...rows.map(([usage]) => usage!.length));
  const lines = rows.map(([usage, description]) => `npm run demo -- ${usage!.padEnd(width)}  ${description}`);
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}

/** The packages that belong to some layers only, as the import test holds them. */
function layerPackagesTable(): string {
  return markdownTable(
    ['packages', 'imported only in', 'because'],
    PACKAGE_RULES.map((rule) => [
      rule.packages.map((p) => `\`${p}\``).join(', '),
      rule.onlyIn.map((f) => `\`${f}\``).join(', '),
      rule.because,
    ]),
  );
}

/** The generated blocks by name. */
export const GENERATED_BLOCKS: Readonly<Record<string, () => string>> = {
  'route-table': () => routeTableMarkdown(),
  'mcp-tools': () => mcpToolTableMarkdown(),
  'start-banner': startBannerSample,
  'demo-actions': demoActionsBlock,
  'configuration-table': configurationTableMarkdown,
  'going-live-checklist': goingLiveChecklistMarkdown,
  'layer-map': () => `\`\`\`\n${layerMapText()}\n\`\`\``,
  'layer-packages': layerPackagesTable,
};

const FENCE_LANGUAGE: Record<string, string> = {
  '.sh': 'sh',
  '.ts': 'ts',
  '.graphql': 'graphql',
  '.json': 'json',
  '.env': 'sh',
};

/** An example file as a fenced code block, whole. */
function includedExample(path: string): string {
  const text = readFileSync(join(projectRoot(), path), 'utf8');
  return `\`\`\`${FENCE_LANGUAGE[extname(path)] ?? ''}\n${text.endsWith('\n') ? text : `${text}\n`}\`\`\`\n`;
}

export class DocsBlockError extends Error {
  override name = 'DocsBlockError';
}

/**
 * A document with each marked block filled in afresh. Throws for a marker naming no generated block or no file.
 * @example writeFileSync(file, renderDocBlocks(readFileSync(file, 'utf8')))
 */
export function renderDocBlocks(text: string): string {
  return text.replace(BLOCK, (_whole, open: string, kind: string, name: string, close: string) => {
    if (kind === 'include') {
      if (!name.startsWith('examples/')) throw new DocsBlockError(`include: ${name} is not under examples/`);
      return `${open}${includedExample(name)}${close}`;
    }
    const generate = GENERATED_BLOCKS[name];
    if (!generate) throw new DocsBlockError(`generated: no block named ${name}`);
    return `${open}${generate()}\n${close}`;
  });
}

/**
 * The blocks a document marks, as `include: examples/…` and `generated: …`.
 * @example markedBlocks(readme) // ['include: examples/rest/profile.sh']
 */
export function markedBlocks(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => `${m[2]}: ${m[3]}`);
}
