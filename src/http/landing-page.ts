import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../rest-compat/docs/html-escape.js';
import { htmlPageHeaders } from './security-headers.js';

/** The service's icon: a hexagon (a chain's block) around a dot, in SVG, served at /favicon.ico and /favicon.svg. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 28 9v14l-12 7L4 23V9z" fill="#2b59c3"/><circle cx="16" cy="16" r="5" fill="#fff"/></svg>\n';

/** Where each way in is, as the landing page lists it. */
const ENTRIES: readonly { href?: string; label: string; what: string }[] = [
  {
    href: '/docs',
    label: 'API reference',
    what: 'every REST path, tier and price (Swagger UI over /api/openapi.yaml)',
  },
  { href: '/graphql', label: 'GraphiQL', what: 'the federated GraphQL API, opened on example queries' },
  { label: 'POST /mcp', what: 'Model Context Protocol server for agents: every REST operation as a tool' },
  {
    href: '/api/sources/health',
    label: 'Sources',
    what: 'which data source is live and which local, and the embedded chains’ JSON-RPC URLs',
  },
  { href: '/api/health', label: 'Health', what: 'readiness of the service and its store' },
  { href: '/.well-known/x402', label: 'x402', what: 'what can be paid per call, in USDC on Base' },
  { href: '/ccip/health', label: 'CCIP-Read gateway', what: 'the ENS subnames it serves and the key it signs with' },
];

/**
 * GET /: a small page linking the reference, GraphiQL, MCP and health, with one call to try. Static: rendered once.
 * @example reply.type('text/html; charset=utf-8').send(renderLandingPage({ publicBaseUrl: undefined }))
 */
export function renderLandingPage({ publicBaseUrl }: { publicBaseUrl: string | undefined }): string {
  const origin = publicBaseUrl ?? '';
  const items = ENTRIES.map(({ href, label, what }) => {
    const name = href ? `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>` : `<code>${escapeHtml(label)}</code>`;
    return `<li>${name}: ${escapeHtml(what)}</li>`;
  }).join('\n');
  const example = `${origin}/api/ens/resolve/alice.eth`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Blockchain Identity and Market Data API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}code,pre{font:14px ui-monospace,monospace;background:#f3f4f6;border-radius:4px}code{padding:0 .2rem}pre{padding:.6rem .8rem;overflow-x:auto}li{margin:.3rem 0}</style>
</head>
<body>
<h1>Blockchain Identity and Market Data API</h1>
<p>ENS names, Farcaster users, token prices, wallets, DeFi and chain data, over REST, GraphQL, MCP and ENS CCIP-Read.
Anonymous calls are free up to a daily quota; sign in with Ethereum or use an API key for more, or pay per call with x402.</p>
<ul>
${items}
</ul>
<p>Try one:</p>
<pre>curl ${escapeHtml(example)}</pre>
<p><a href="/api/ens/resolve/alice.eth">${escapeHtml('/api/ens/resolve/alice.eth')}</a> · the guides for each kind of caller are in <code>docs/</code> of the repository.</p>
</body>
</html>
`;
}

/**
 * GET / (the landing page) and the favicon at /favicon.ico and /favicon.svg; free and uncounted, like /docs.
 * @example await registerLandingPage(app, { publicBaseUrl: config.publicBaseUrl })
 */
export async function registerLandingPage(
  app: FastifyInstance,
  opts: { publicBaseUrl: string | undefined },
): Promise<void> {
  const page = renderLandingPage(opts);
  // The origin only changes text outside the inline style: the page's CSP (hashes of that style) is the same for all.
  const pageHeaders = await htmlPageHeaders(page);
  app.get('/', async (request, reply) => {
    // A curl line to paste needs an absolute URL: without PUBLIC_BASE_URL, the one this page was asked for.
    const asked =
      opts.publicBaseUrl === undefined
        ? renderLandingPage({ publicBaseUrl: `${request.protocol}://${request.host}` })
        : page;
    return reply.headers(pageHeaders).type('text/html; charset=utf-8').send(asked);
  });
  for (const url of ['/favicon.ico', '/favicon.svg']) {
    app.get(url, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON_SVG),
    );
  }
}
