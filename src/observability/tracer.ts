import {
  type Attributes,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * The tracer every span of this service comes from, set while this process exports spans: without it every hook runs
 * its call and nothing more. Taken from the provider registered at that moment (a tracer got earlier would keep
 * delegating to a provider shut down since).
 */
let tracer: Tracer | undefined;

/** Whether spans are recorded (OTEL_EXPORTER_OTLP_ENDPOINT set, or a test registered its own processor). */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** Called by start-tracing.ts only, once it has registered the tracer provider, and as it shuts it down. */
export function setTracingEnabled(on: boolean): void {
  tracer = on ? trace.getTracer('chain-identity-api') : undefined;
}

/** The error code a failed span shows: an ApiError's code or an error's class name, never its message (it may hold a name or address). */
function failureCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,40}$/.test(code)) return code;
  return err instanceof Error ? err.name : 'error';
}

/** Marks `span` failed with `err`'s code. */
export function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: failureCode(err) });
}

/**
 * Runs `run` inside a new span, the current one's child, that ends when `run` settles (failed if it rejects); calls
 * and promises `run` starts see it as the active span. With tracing off it only calls `run`.
 * @example await inSpan('store consumeQuota', { 'db.operation.name': 'consumeQuota' }, () => store.consumeQuota(args))
 */
export function inSpan<T>(name: string, attributes: Attributes, run: (span: Span) => Promise<T>): Promise<T> {
  if (tracer === undefined) return run(noSpan);
  return tracer.startActiveSpan(name, { attributes, kind: SpanKind.INTERNAL }, async (span) => {
    try {
      return await run(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Starts a server span that the caller ends (the HTTP hooks: it outlives any one function). A request from a trusted
 * source continues the trace its W3C `traceparent` (and `tracestate`) names; any other request starts a trace of its
 * own, sampled by this service, linked to the context it sent without its `tracestate` (a caller neither joins our
 * traces, nor turns their sampling off with flags 00, nor has its trace state exported as is: OpenTelemetry's advice
 * for public endpoints).
 */
export function startServerSpan(
  name: string,
  attributes: Attributes,
  headers: Record<string, string | string[] | undefined>,
  trusted: boolean,
): Span {
  const tracing = tracer ?? trace.getTracer('chain-identity-api');
  const incoming = propagation.extract(ROOT_CONTEXT, headers);
  if (trusted) return tracing.startSpan(name, { attributes, kind: SpanKind.SERVER }, incoming);
  const sent = trace.getSpanContext(incoming);
  const links =
    sent && isSpanContextValid(sent)
      ? [{ context: { traceId: sent.traceId, spanId: sent.spanId, traceFlags: 0 } }]
      : [];
  return tracing.startSpan(name, { attributes, kind: SpanKind.SERVER, root: true, links }, ROOT_CONTEXT);
}

/** What `run` receives when tracing is off: setting attributes on it does nothing. */
const noSpan: Span = trace.wrapSpanContext({ traceId: '', spanId: '', traceFlags: 0 });
