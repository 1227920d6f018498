import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocsPage } from '../../rest-compat/docs/docs-page.js';
import { UI_ASSET_FILES } from '../../rest-compat/docs/ui-asset-files.js';
import { renderGraphiqlPage } from '../../src/http/graphiql-page.js';
import { uiAssets } from '../../src/http/ui-assets.js';

const ASSETS: [string, RegExp][] = [
  ['/docs/assets/swagger-ui.css', /^text\/css/],
  ['/docs/assets/swagger-ui-bundle.js', /^text\/javascript/],
  ['/graphql/assets/graphiql.min.js', /^text\/javascript/],
  ['/graphql/assets/graphiql.min.css', /^text\/css/],
  ['/graphql/assets/react.production.min.js', /^text\/javascript/],
  ['/graphql/assets/react-dom.production.min.js', /^text\/javascript/],
];

/** Every src and href of a page. */
function linkedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1] as string);
}

function scriptSources(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((match) => match[1] as string);
}

describe('UI assets served from node_modules', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(uiAssets, {});
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(ASSETS)(
    '%s answers 200 with its content type, a long immutable cache and a non-empty body',
    async (url, type) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.length).toBeGreaterThan(1000);
    },
  );

  it('answers a versioned link and a revalidation with the same file', async () => {
    const first = await app.inject({ method: 'GET', url: '/docs/assets/swagger-ui.css?v=5.35.0' });
    expect(first.statusCode).toBe(200);
    const again = await app.inject({
      method: 'GET',
      url: '/docs/assets/swagger-ui.css',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves the UMD builds the pages expect: window.GraphiQL, React and ReactDOM', async () => {
    const graphiql = (await app.inject({ method: 'GET', url: '/graphql/assets/graphiql.min.js' })).body;
    expect(graphiql).toContain('.GraphiQL=');
    expect(graphiql).toContain('createFetcher');
    expect((await app.inject({ method: 'GET', url: '/graphql/assets/react-dom.production.min.js' })).body).toContain(
      'createRoot',
    );
    expect((await app.inject({ method: 'GET', url: '/docs/assets/swagger-ui-bundle.js' })).body).toContain(
      'SwaggerUIBundle',
    );
  });

  it('lists exactly the asset routes it serves', () => {
    expect(UI_ASSET_FILES.map((asset) => asset.url)).toEqual(ASSETS.map(([url]) => url));
  });
});

describe('the docs page', () => {
  const html = renderDocsPage({});

  it('is a full HTML page with a title that renders the spec with Swagger UI', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('SwaggerUIBundle(');
    expect(html).toContain('"url":"/api/openapi.yaml"');
    expect(html).toContain('"validatorUrl":null');
  });

  it('loads only same-origin assets from /docs/assets/', () => {
    expect(scriptSources(html)).toEqual([expect.stringMatching(/^\/docs\/assets\/swagger-ui-bundle\.js\?v=/)]);
    for (const url of linkedUrls(html)) expect(url).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/src="https?:|href="https?:|src="\/\//);
  });

  it('takes the spec URL and escapes it for the inline script', () => {
    const custom = renderDocsPage({ specUrl: '/x</script><script>alert(1)</script>.yaml' });
    expect(custom).not.toContain('</script><script>alert(1)');
  });
});

describe('the GraphiQL page', () => {
  const html = renderGraphiqlPage({});

  it('is a full HTML page that mounts GraphiQL 3 with a fetcher for /graphql, subscriptions over SSE', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('var endpoint = "/graphql";');
    expect(html).toContain('GraphiQL.createFetcher({ url: endpoint })');
    expect(html).toContain("accept: 'text/event-stream'");
    expect(html).toContain('ReactDOM.createRoot(');
    expect(renderGraphiqlPage({ endpoint: '/gql' })).toContain('var endpoint = "/gql";');
  });

  it('loads React, ReactDOM and GraphiQL, in that order, from /graphql/assets/ only', () => {
    expect(scriptSources(html).map((src) => src.split('?')[0])).toEqual([
      '/graphql/assets/react.production.min.js',
      '/graphql/assets/react-dom.production.min.js',
      '/graphql/assets/graphiql.min.js',
    ]);
    expect(linkedUrls(html).map((url) => url.split('?')[0])).toContain('/graphql/assets/graphiql.min.css');
    for (const url of linkedUrls(html)) expect(url).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/src="https?:|href="https?:|src="\/\//);
  });
});
