import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import Fastify from 'fastify';

/** What the bare server answers: one route, the bytes the real service returned for it. */
export interface BareRouteSpec {
  method: 'GET' | 'POST';
  /** Path without the query string (fastify routes ignore it). */
  path: string;
  status: number;
  contentType: string;
  bodyBase64: string;
  /** Further response headers, [name, value] in the service's order, sent on every answer (captured once). */
  headers?: [string, string][];
  /** What answers: fastify with defaults (the default), or node:http alone (the floor under any framework). */
  engine?: 'fastify' | 'node:http';
  /** The service sent its body in chunks (no Content-Length): so does the baseline. */
  chunked?: boolean;
  /** The service's `Keep-Alive: timeout=N`: the baseline announces (and keeps) the same. */
  keepAliveTimeoutS?: number;
}

/** node:http answering every request with the spec's bytes: no router, no framework, one write per answer. */
function nodeHttpServer(spec: BareRouteSpec, body: Buffer): Server {
  const headers = [
    ...(spec.headers ?? []),
    ['content-type', spec.contentType],
    ...(spec.chunked ? [] : [['content-length', String(body.length)]]),
  ].flat();
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(spec.status, headers);
      if (spec.chunked) response.write(body);
      response.end(spec.chunked ? undefined : body);
    });
  });
  if (spec.keepAliveTimeoutS !== undefined) server.keepAliveTimeout = spec.keepAliveTimeoutS * 1000;
  return server;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * The benchmark's baseline: fastify with defaults and no logger (or bare node:http) answering one route with fixed
 * bytes (the body, and optionally the service's headers too).
 * Usage: node dist/test/bench/bare-server.js <spec.json>; prints `serving on http://127.0.0.1:PORT`.
 */
async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as BareRouteSpec;
  const body = Buffer.from(spec.bodyBase64, 'base64');
  if (spec.engine === 'node:http') {
    const server = nodeHttpServer(spec, body);
    process.stdout.write(`serving on http://127.0.0.1:${await listen(server)}\n`);
    process.once('SIGTERM', () => server.close(() => process.exit(0)));
    return;
  }
  const app = Fastify({
    logger: false,
    ...(spec.keepAliveTimeoutS !== undefined ? { keepAliveTimeout: spec.keepAliveTimeoutS * 1000 } : {}),
  });
  const headers = spec.headers ?? [];
  app.route({
    method: spec.method,
    url: spec.path,
    handler: async (_request, reply) => {
      reply.code(spec.status);
      for (const [name, value] of headers) reply.header(name, value);
      return reply.type(spec.contentType).send(spec.chunked ? Readable.from([body]) : body);
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`serving on http://127.0.0.1:${port}\n`);
  process.once('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`bare server failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
