import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AppConfig } from '../config/config.js';
import { setTracingEnabled, tracingEnabled } from './tracer.js';

/** A running tracer provider; shutdown() sends what is buffered and makes every hook a no-op again. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** Thrown when a second tracer provider would register in one process: its spans would go nowhere. */
export class TracingAlreadyStartedError extends Error {
  override name = 'TracingAlreadyStartedError';
}

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (spans batched to `<endpoint>/v1/traces` over
 * OTLP/HTTP) or `spanProcessors` are given (tests); otherwise loads no SDK and returns undefined, and every span hook
 * stays a plain call. The provider is registered globally with the AsyncLocalStorage context manager, so a span stays
 * the parent of whatever its callbacks start, across awaits and DataLoader ticks.
 * @example const tracing = await startTracing({ otel: config.otel }); …; await tracing?.shutdown()
 */
export async function startTracing(p: {
  otel: Pick<AppConfig['otel'], 'endpoint' | 'serviceName' | 'headers'>;
  spanProcessors?: readonly SpanProcessor[];
}): Promise<Tracing | undefined> {
  const processors = [...(p.spanProcessors ?? [])];
  const { endpoint, serviceName, headers } = p.otel;
  if (endpoint === undefined && processors.length === 0) return undefined;
  if (tracingEnabled()) throw new TracingAlreadyStartedError('tracing is already started in this process');
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  if (endpoint !== undefined) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, headers });
    processors.push(new BatchSpanProcessor(exporter));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: processors,
  });
  provider.register();
  setTracingEnabled(true);
  return {
    async shutdown() {
      setTracingEnabled(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
