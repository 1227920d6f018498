import { context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { startServerSpan, tracingEnabled } from '../../observability/tracer.js';

/**
 * One server span per HTTP call, `GET /api/price/:symbol`, with the request id (`request.id`, the X-Request-Id the
 * answer carries) and the status; the handler runs with it as the active span, so the operation, loader, upstream and
 * store spans of the call are its descendants. A caller's trace context is followed only from a peer
 * `trustsTraceContext` names (tracer.ts startServerSpan). Adds no hook at all when tracing is off.
 * @example registerHttpSpans(app, { trustsTraceContext: (peer) => isTrustedProxy(peer) }) // before the routes
 */
export function registerHttpSpans(
  app: FastifyInstance,
  p: { trustsTraceContext: (peerAddress: string) => boolean },
): void {
  if (!tracingEnabled()) return;
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const attributes = { 'http.request.method': request.method, 'http.route': route, 'request.id': request.id };
    const trusted = p.trustsTraceContext(request.raw.socket.remoteAddress ?? '');
    spans.set(request, startServerSpan(`${request.method} ${route}`, attributes, request.headers, trusted));
    done();
  });
  // After the body is parsed: from here on (hooks, handler, what it awaits) the call's span is the active one.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (span === undefined) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span !== undefined) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
