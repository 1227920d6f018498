import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_ASSET_FILES, uiAssetPath } from '../../rest-compat/docs/ui-asset-files.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ONE_FREE_CALL } from '../helpers/x402-payer.js';

const APP = 'https://app.example.com';
const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Tier',
  'X-RateLimit-Tier-Limit',
  'X-RateLimit-Tier-Remaining',
  'X-RateLimit-Global-Used',
  'X-RateLimit-Global-Limit',
];
const EXPOSED = [...RATE_LIMIT_HEADERS, 'Retry-After', 'X-Request-Id', 'PAYMENT-REQUIRED', 'X-PAYMENT-RESPONSE'];

function preflight(server: TestServer, path: string, origin = APP, method = 'POST'): Promise<Response> {
  return server.request({
    method: 'OPTIONS',
    path,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type, authorization, x-api-key, x-payment, payment-signature',
    },
  });
}

/** The Content-Security-Policy header as directive → sources. */
function cspOf(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
const inlineStyles = (html: string) => [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);

describe('browser callers: CORS for any origin by default, security headers, /docs and GraphiQL under a CSP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(ONE_FREE_CALL);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['/graphql', '/api/price/ETH', '/api/user/keys/k1', '/ccip', '/ccip/0x00/0x00.json'])(
    'a preflight to %s is answered 204 for any origin, without credentials, with the methods and the asked headers',
    async (path) => {
      const res = await preflight(server, path);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-allow-methods')?.split(/,\s*/)).toEqual([
        'GET',
        'HEAD',
        'POST',
        'PATCH',
        'DELETE',
      ]);
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'content-type, authorization, x-api-key, x-payment, payment-signature',
      );
      expect(res.headers.get('access-control-max-age')).toBe('7200');
      expect(res.headers.get('x-ratelimit-tier')).toBeNull();
    },
  );

  it('preflights count nothing: the one free call of the day is still there afterwards', async () => {
    for (let i = 0; i < 5; i++) expect((await preflight(server, '/api/price/ETH', APP, 'GET')).status).toBe(204);
    const res = await server.get('/api/price/ETH', { origin: APP });
    expect(res.status).toBe(200);
  });

  it('a cross-origin answer (200 or the x402 402) lets the script read the limits, the request id and the offer', async () => {
    const offer = await server.get('/api/price/BTC', { origin: APP });
    expect(offer.status).toBe(402);
    for (const res of [offer, await server.get('/api/health', { origin: APP })]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining([...EXPOSED, 'PAYMENT-RESPONSE']));
    }
    expect(offer.headers.get('payment-required')).not.toBeNull();
  });

  it('every answer, errors included, carries the security headers: nothing runs, is framed or is sniffed', async () => {
    for (const path of ['/api/health', '/api/price/ETH', '/api/not-a-route', '/docs/assets/swagger-ui.css']) {
      const res = await server.get(path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d+/);
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('cross-origin');
    }
  });

  it.each([
    ['/docs', 'hashes'],
    ['/graphql', 'unsafe-inline'],
  ] as const)(
    '%s runs under its CSP: its inline scripts by hash, every other script and style from this origin',
    async (path, styles) => {
      const res = await server.get(path, { accept: 'text/html' });
      expect(res.status).toBe(200);
      const html = await res.text();
      const csp = cspOf(res);
      const scripts = inlineScripts(html);
      expect(scripts.length).toBeGreaterThan(0);
      expect(csp.get('script-src')).toEqual(["'self'", ...scripts.map(sha256)]);
      expect(csp.get('style-src')).toEqual(
        styles === 'hashes' ? ["'self'", ...inlineStyles(html).map(sha256)] : ["'self'", "'unsafe-inline'"],
      );
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      // Nothing the CSP would block: no inline handlers or style attributes, every file from this origin.
      expect(html).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html).not.toMatch(/\sstyle\s*=/i);
      const linked = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
      for (const url of linked.filter((u) => !u.startsWith('/api/openapi.yaml'))) {
        // The page's own assets, and the service's icon.
        expect(url, url).toMatch(/^\/((docs|graphql)\/assets\/|favicon\.svg$)/);
        expect((await server.get(url)).status, url).toBe(200);
      }
    },
  );

  it("the pages' scripts need no eval: the bundles call no eval, and new Function only as webpack's globalThis fallback", () => {
    for (const asset of UI_ASSET_FILES.filter((a) => a.url.endsWith('.js'))) {
      const code = readFileSync(uiAssetPath(asset), 'utf8');
      expect(code, asset.url).not.toMatch(/[^\w$.]eval\(/);
      const functions = code.match(/new Function\([^)]*\)/g) ?? [];
      expect(
        functions.every((f) => f === 'new Function("return this")'),
        asset.url,
      ).toBe(true);
      if (functions.length > 0) expect(code, asset.url).toContain('"object"==typeof globalThis)return globalThis');
    }
  });
});

describe('CORS with an allow-list (CORS_ORIGINS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ CORS_ORIGINS: `${APP}, https://admin.example.com` });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a listed origin is named back (Vary: Origin); another origin gets no Access-Control-Allow-Origin', async () => {
    const listed = await preflight(server, '/graphql');
    expect(listed.status).toBe(204);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('vary')).toMatch(/origin/i);
    const call = await server.get('/api/health', { origin: 'https://admin.example.com' });
    expect(call.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');

    const stranger = await preflight(server, '/graphql', 'https://evil.example.net');
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const strangerCall = await server.get('/api/health', { origin: 'https://evil.example.net' });
    expect(strangerCall.status).toBe(200);
    expect(strangerCall.headers.get('access-control-allow-origin')).toBeNull();
  });
});
