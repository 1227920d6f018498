import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';

/** How often Node looks for connections past their headers or request timeout (its default is 30 s). */
export function connectionsCheckingInterval(c: AppConfig['connections']): number {
  return Math.max(50, Math.min(1000, Math.floor(c.headersTimeoutMs / 2)));
}

/**
 * The HTTP server options of {@link AppConfig.connections}: Fastify's keep-alive and request timeouts, and Node's
 * headers timeout, checked often enough for it to bite.
 * @example Fastify({ ...connectionOptions(config.connections) })
 */
export function connectionOptions(c: AppConfig['connections']) {
  return {
    keepAliveTimeout: c.keepAliveTimeoutMs,
    requestTimeout: c.requestTimeoutMs,
    http: { headersTimeout: c.headersTimeoutMs, connectionsCheckingInterval: connectionsCheckingInterval(c) },
  };
}

/**
 * At most `max` open connections. One more is still accepted, so that it can be told so: its first request is
 * answered 503 SERVICE_UNAVAILABLE with `Connection: close` (through the one error renderer, with every header an
 * answer gets); one that sends nothing is closed by the headers timeout, as any other. Node's own `maxConnections`
 * would reset it without a word.
 * @example limitConnections(app, config.connections.max)
 */
export function limitConnections(app: FastifyInstance, max: number): void {
  let open = 0;
  const overLimit = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    if (open > max) overLimit.add(socket);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (!overLimit.has(request.raw.socket)) return done();
    done(
      new ApiError(
        'SERVICE_UNAVAILABLE',
        `this server has ${max} connections open, its limit: retry shortly, or reuse a connection`,
        {},
        { Connection: 'close', 'Retry-After': '1' },
      ),
    );
  });
}
