import { z } from 'zod';
import { type ConfigArea, optional, type SettingsOf, urlSchema, withDefault } from './config-variable.js';

/**
 * OTEL_EXPORTER_OTLP_HEADERS as OpenTelemetry writes it: `key=value` pairs, comma-separated, values percent-encoded.
 * @example otlpHeaders('x-honeycomb-team=abc,x-env=prod', ctx) // { 'x-honeycomb-team': 'abc', 'x-env': 'prod' }
 */
function otlpHeaders(value: string, ctx: z.RefinementCtx): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: 'must be key=value pairs separated by commas' });
      return z.NEVER;
    }
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: `the value of ${name} is not valid percent-encoding` });
      return z.NEVER;
    }
  }
  return headers;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Logs, metrics and traces. */
export const OBSERVABILITY_AREA = {
  title: 'Logs, metrics and traces',
  about: 'What the service tells its operator',
  variables: {
    LOG_LEVEL: withDefault(
      'info',
      z.enum(LOG_LEVELS),
      'pino level; secrets (API keys, tokens, payment headers) are redacted from every line',
    ),
    METRICS_TOKEN: optional(
      z.string().min(16, 'must be at least 16 characters'),
      'bearer token `GET /metrics` asks for (≥ 16 characters, never logged); unset: `/metrics` is not served',
      { secret: true },
    ),
    OTEL_EXPORTER_OTLP_ENDPOINT: optional(
      urlSchema,
      'OpenTelemetry traces to this collector (OTLP/HTTP, spans to `<url>/v1/traces`); unset: no tracing SDK is loaded ([operators](operators.md#traces))',
    ),
    OTEL_EXPORTER_OTLP_HEADERS: optional(
      z.string().transform((v, ctx) => otlpHeaders(v, ctx)),
      "headers sent with each span export, `key=value` pairs comma-separated (a collector's API key; never logged)",
      { secret: true },
    ),
    OTEL_SERVICE_NAME: withDefault(
      'chain-identity-api',
      z.string().min(1).max(128),
      'the `service.name` of every span',
    ),
    OTEL_TRACE_CONTEXT_FROM: withDefault(
      'proxies',
      z.enum(['proxies', 'all', 'none']),
      "whose incoming `traceparent`/`tracestate` a request's span continues: `proxies` (peers `TRUST_PROXY` trusts), `all` or `none`; anyone else's starts a new trace linked to theirs",
    ),
  },
} as const satisfies ConfigArea;

export interface ObservabilityConfig {
  logLevel: (typeof LOG_LEVELS)[number];
  /** Bearer token of GET /metrics; undefined: /metrics is not served. Never logged. */
  metricsToken: string | undefined;
  /** OpenTelemetry traces (docs/operators.md#traces): no endpoint, no SDK and no spans. */
  otel: {
    /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's OTLP/HTTP base URL. */
    endpoint: string | undefined;
    /** OTEL_EXPORTER_OTLP_HEADERS: headers sent with each export (a collector's API key). Never logged. */
    headers: Record<string, string>;
    /** OTEL_SERVICE_NAME: the `service.name` of every span. */
    serviceName: string;
    /** OTEL_TRACE_CONTEXT_FROM: the peers whose incoming trace context is continued (others get a linked new trace). */
    traceContextFrom: 'proxies' | 'all' | 'none';
  };
}

export function observabilityConfig(e: SettingsOf<typeof OBSERVABILITY_AREA.variables>): ObservabilityConfig {
  return {
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    otel: {
      endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
      headers: e.OTEL_EXPORTER_OTLP_HEADERS ?? {},
      serviceName: e.OTEL_SERVICE_NAME,
      traceContextFrom: e.OTEL_TRACE_CONTEXT_FROM,
    },
  };
}
