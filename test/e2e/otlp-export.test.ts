import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingEnabled } from '../../src/observability/tracer.js';
import { startTestServer } from '../helpers/test-server.js';

/** A stand-in OpenTelemetry collector: records every OTLP/HTTP export it receives. */
interface Export {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let collector: Server;
let collectorUrl: string;
const exports: Export[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
});

describe('OTEL_EXPORTER_OTLP_ENDPOINT (docs/operators.md#traces)', () => {
  it('unset: no tracer provider is registered and every span hook stays a plain call', async () => {
    const server = await startTestServer();
    try {
      expect(tracingEnabled()).toBe(false);
      expect((await server.get('/api/gas')).status).toBe(200);
    } finally {
      await server.close();
    }
    expect(exports).toEqual([]);
  });

  it("set: each call's spans reach the collector over OTLP/HTTP at <endpoint>/v1/traces, with the configured headers and service name", async () => {
    const server = await startTestServer({
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collectorUrl}/`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%3Dv,x-team=ops',
      OTEL_SERVICE_NAME: 'api-under-test',
    });
    expect(tracingEnabled()).toBe(true);
    const res = await server.get('/api/gas', { 'x-request-id': 'otlp-export-1' });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // Closing flushes the batch processor before it shuts the provider down.
    await server.close();
    expect(tracingEnabled()).toBe(false);

    expect(exports.length).toBeGreaterThan(0);
    for (const e of exports) {
      expect(e.path).toBe('/v1/traces');
      expect(e.headers['x-collector-key']).toBe('k=v');
      expect(e.headers['x-team']).toBe('ops');
    }
    const sent = exports.map((e) => e.body).join('\n');
    expect(sent).toContain('api-under-test');
    expect(sent).toContain('GET /api/gas');
    expect(sent).toContain('otlp-export-1');
  });

  it("a caller's trace context does not steer what is exported: flags 00 drop nothing, its tracestate is not sent, its trace id only as a link", async () => {
    exports.length = 0;
    const server = await startTestServer({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl });
    const callerTrace = '6bf92f3577b34da6a3ce929d0e0e4738';
    const res = await server.get('/api/gas', {
      'x-request-id': 'otlp-export-untrusted',
      traceparent: `00-${callerTrace}-20f067aa0ba902b9-00`,
      tracestate: 'steer=caller-chosen-value',
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await server.close();

    const sent = exports.map((e) => e.body).join('\n');
    expect(sent).toContain('otlp-export-untrusted');
    expect(sent).not.toContain('caller-chosen-value');
    const spans = exports.flatMap((e) =>
      (JSON.parse(e.body) as OtlpExport).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((sc) => sc.spans)),
    );
    const http = spans.find((span) => span.name === 'GET /api/gas')!;
    expect(http.traceId).not.toBe(callerTrace);
    expect(http.links?.map((l) => l.traceId)).toEqual([callerTrace]);
  });
});

/** What the OTLP/HTTP JSON exporter sends, as far as these tests read it. */
interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: { name: string; traceId: string; links?: { traceId: string }[] }[] }[] }[];
}
