import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anonymousNetwork } from '../access/client-address.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { proxyTrust } from './trusted-proxies.js';

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

/** Who may hold how many connections: AppConfig.connections with the settings that say who a client is. */
export interface ConnectionShares {
  max: number;
  maxPerAddress: number;
  firstByteTimeoutMs: number;
  /** Whether the socket's peer is a trusted proxy (whose connections carry many clients: not capped per address). */
  isTrustedProxy: (address: string) => boolean;
  /** The client an address is counted as: an IPv6 address's network (client-address.ts), an IPv4 address itself. */
  clientOf: (address: string) => string;
}

/**
 * At most `max` open connections, and at most `maxPerAddress` of them from one client address, so that one client
 * cannot take every place. A connection past either is still accepted, so that it can be told so: its first request is
 * answered 503 SERVICE_UNAVAILABLE with `Connection: close` (through the one error renderer, with every header an
 * answer gets), and it holds no place meanwhile. Node's own `maxConnections` would reset it without a word. A
 * connection that sends no byte within `firstByteTimeoutMs` is closed: silent sockets do not hold places for the whole
 * headers timeout (one that has started its headers has the headers timeout to finish them). Returns the refusal of a
 * request on a connection past a limit (undefined: none), which the request entry hook (request-entry.ts) raises.
 * @example const refusal = limitConnections(app, { ...config.connections, isTrustedProxy, clientOf })
 */
export function limitConnections(
  app: FastifyInstance,
  shares: ConnectionShares,
): (request: FastifyRequest) => ApiError | undefined {
  const { max, maxPerAddress } = shares;
  let open = 0;
  const byClient = new Map<string, number>();
  const refused = new WeakMap<Socket, string>();
  app.server.on('connection', (socket: Socket) => {
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, shares.firstByteTimeoutMs);
    silent.unref();
    socket.once('close', () => clearTimeout(silent));
    const address = socket.remoteAddress ?? '';
    const client = shares.isTrustedProxy(address) ? undefined : shares.clientOf(address);
    const held = client === undefined ? 0 : (byClient.get(client) ?? 0);
    if (open >= max) {
      refused.set(socket, `this server has ${max} connections open, its limit: retry shortly, or reuse a connection`);
      return;
    }
    if (held >= maxPerAddress) {
      refused.set(
        socket,
        `your address has ${maxPerAddress} connections open, the limit for one client: reuse a connection`,
      );
      return;
    }
    open += 1;
    if (client !== undefined) byClient.set(client, held + 1);
    socket.once('close', () => {
      open -= 1;
      if (client === undefined) return;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left === 0) byClient.delete(client);
      else byClient.set(client, left);
    });
  });
  return (request) => {
    const reason = refused.get(request.raw.socket);
    if (reason === undefined) return undefined;
    return new ApiError('SERVICE_UNAVAILABLE', reason, {}, { Connection: 'close', 'Retry-After': '1' });
  };
}

/**
 * The connection shares AppConfig says: its limits, TRUST_PROXY's proxies uncapped, IPv6 clients by their
 * ANONYMOUS_IPV6_PREFIX network (as anonymous callers are counted).
 * @example limitConnections(app, connectionShares(config))
 */
export function connectionShares(config: AppConfig): ConnectionShares {
  const trust = proxyTrust(config.trustProxy);
  return {
    ...config.connections,
    isTrustedProxy: typeof trust === 'boolean' ? () => trust : (address) => trust(address, 0),
    clientOf: (address) => anonymousNetwork(address, config.anonymousIpv6Prefix) ?? address,
  };
}
