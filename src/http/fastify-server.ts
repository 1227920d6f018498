import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { requestLoggerFactory } from '../logging/request-logger.js';
import { connectionOptions } from './connection-limits.js';
import { clientErrorResponse, sendFrameworkError } from './error-handler.js';
import { requestIdFor } from './request-id.js';
import { proxyTrust } from './trusted-proxies.js';

/** Request bodies are small JSON documents; 1 MiB bounds what a caller can make us parse. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Fastify's two info lines of every request ("incoming request", "request completed"), asked of the request's logger
 * only when it writes info: fastify's controller builds their objects and arguments on every request and the logger
 * drops them at LOG_LEVEL=warn (the production level), twice per request. Every line still written is fastify's own,
 * unchanged; errors, warnings and the other lines are its controller's.
 */
export class InfoLinesWhenWritten extends LogController {
  /** The service's request loggers are pino's (request-logger.ts), which say whether a level is written. */
  private static writesInfo(request: FastifyRequest): boolean {
    return (request.log as Logger).isLevelEnabled('info');
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (InfoLinesWhenWritten.writesInfo(request)) super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || InfoLinesWhenWritten.writesInfo(request)) super.requestCompleted(error, request, reply);
  }
}

/**
 * The process logger as fastify is given it: fastify makes its root logger as a child of the instance, then one child
 * of that root per request, and here that child is request-logger.ts's lazy one (a pino child only once a line is
 * written). Given as the root's own `child` rather than as `childLoggerFactory`, so that fastify's default factory
 * calls it: a custom factory's logger is validated on every request (an array, a filter closure and seven lookups).
 */
export function withLazyRequestLoggers(logger: Logger): FastifyBaseLogger {
  const withChildren = (parent: Logger, child: (bindings: Bindings, options: ChildLoggerOptions) => Logger) =>
    Object.assign(Object.create(parent) as Logger, { child });
  return withChildren(logger, (bindings, options) => {
    const root = logger.child(bindings, options);
    return withChildren(root, (requestBindings, requestOptions) =>
      requestLoggerFactory(root, requestBindings, requestOptions ?? {}),
    );
  }) as FastifyBaseLogger;
}

/**
 * The fastify instance the service answers on, with no route and no hook yet: its logger, proxy trust, connection
 * timeouts, body limit and request ids, and the answers written before any hook runs (a request Node's parser refuses,
 * a path that is not valid percent-encoding), which carry `answerHeaders` (the security headers, once known).
 * @example const app = createFastifyServer({ config, logger }, answerHeaders)
 */
export function createFastifyServer(
  deps: { config: AppConfig; logger: Logger },
  answerHeaders: Readonly<Record<string, string>>,
): FastifyInstance {
  return Fastify({
    // request.log becomes a pino child only when a line is written (most requests write none at LOG_LEVEL=warn).
    loggerInstance: withLazyRequestLoggers(deps.logger),
    logController: new InfoLinesWhenWritten(),
    trustProxy: proxyTrust(deps.config.trustProxy),
    // Keep-alive, headers and request timeouts (MAX_CONNECTIONS and the rest: README "Running behind a proxy").
    ...connectionOptions(deps.config.connections),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdFor,
    clientErrorHandler: (err, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(err, answerHeaders));
      else socket.destroy(err);
    },
    // A path parameter that is not valid percent-encoding ('/api/price/%') is a 400 in the envelope too.
    frameworkErrors: (err, request, reply) => sendFrameworkError(err, request, reply, answerHeaders),
    // CCIP calldata travels in the path; ERC-3668 requests run to a few KB of hex.
    routerOptions: { maxParamLength: 16_384 },
  });
}
