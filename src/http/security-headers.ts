import { createHash } from 'node:crypto';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';

/** Headers that are the framework's, not helmet's, in a probe answer. */
const NOT_HELMETS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sets with `options`, computed once: the plugin builds helmet's middleware anew on every
 * request (11 µs measured, a fifth of a cached call), so the service applies the same headers from a map instead.
 * @example await helmetHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } })
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(fastifyHelmet, options);
    probe.get('/', async () => '');
    const res = await probe.inject({ method: 'GET', url: '/' });
    return Object.fromEntries(
      Object.entries(res.headers)
        .filter(([name, value]) => !NOT_HELMETS.has(name) && typeof value === 'string')
        .map(([name, value]) => [name, value as string]),
    );
  } finally {
    await probe.close();
  }
}

/** JSON and asset answers: nothing in them may run, be framed or be sniffed into HTML; any origin may read them. */
const API_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  xFrameOptions: { action: 'deny' },
  // Only meaningful for documents a browser renders: left to the HTML pages.
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * Security headers on every answer: helmet's, computed once at start, [lower-case name, value] (the request entry hook,
 * request-entry.ts, writes them: six property writes on the hot path). HTML pages replace them with
 * {@link htmlPageHeaders}; answers written before any hook runs get them too (error-handler.ts).
 * @example const headers = await apiSecurityHeaders() // { 'content-security-policy': "default-src 'none';…", … }
 */
export function apiSecurityHeaders(): Promise<Record<string, string>> {
  return helmetHeaders(API_OPTIONS);
}

const INLINE_SCRIPTS = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;
const INLINE_STYLES = /<style[^>]*>([\s\S]*?)<\/style>/g;

/** CSP source of one inline element's exact text. */
function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The inline `<script>` (without src) and `<style>` texts of a page we render. */
export function inlineElements(html: string): { scripts: string[]; styles: string[] } {
  return {
    scripts: [...html.matchAll(INLINE_SCRIPTS)].map((m) => m[1] ?? ''),
    styles: [...html.matchAll(INLINE_STYLES)].map((m) => m[1] ?? ''),
  };
}

/**
 * Helmet's headers for one of our HTML pages (/docs, GraphiQL), with a CSP that lets exactly its own inline scripts
 * run (by hash) and everything else load from this origin only. `styles: 'unsafe-inline'` is for a page whose library
 * adds `<style>` elements at run time (GraphiQL's scroll lock); scripts are never let in that way.
 * @example await htmlPageHeaders(renderDocsPage({}))
 */
export function htmlPageHeaders(
  html: string,
  opts: { styles: 'hashes' | 'unsafe-inline' } = { styles: 'hashes' },
): Promise<Record<string, string>> {
  const { scripts, styles } = inlineElements(html);
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scripts.map(sha256Source)],
        styleSrc: ["'self'", ...(opts.styles === 'unsafe-inline' ? ["'unsafe-inline'"] : styles.map(sha256Source))],
        // Swagger UI's and GraphiQL's stylesheets carry their icons and fonts as data: URIs.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  });
}
