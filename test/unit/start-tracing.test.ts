import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { startTracing, TracingAlreadyStartedError } from '../../src/observability/start-tracing.js';
import { inSpan, tracingEnabled } from '../../src/observability/tracer.js';

const otel = { endpoint: undefined, headers: {}, serviceName: 'tracing-test' };

describe('startTracing (src/observability/start-tracing.ts)', () => {
  it('without an endpoint or processors loads nothing: spans are plain calls', async () => {
    expect(await startTracing({ otel })).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    await expect(inSpan('store ping', {}, async () => 'ran')).resolves.toBe('ran');
  });

  it('records spans while started, refuses a second provider, and after a shutdown a new start records to the new one', async () => {
    const first = new InMemorySpanExporter();
    const tracing = await startTracing({ otel, spanProcessors: [new SimpleSpanProcessor(first)] });
    try {
      const other = [new SimpleSpanProcessor(new InMemorySpanExporter())];
      await expect(startTracing({ otel, spanProcessors: other })).rejects.toBeInstanceOf(TracingAlreadyStartedError);
      await inSpan('first', {}, async () => {});
      // Read before the shutdown: an in-memory exporter forgets its spans when shut down.
      expect(first.getFinishedSpans().map((s) => s.name)).toEqual(['first']);
    } finally {
      await tracing!.shutdown();
    }
    expect(tracingEnabled()).toBe(false);
    await inSpan('between', {}, async () => {});

    const second = new InMemorySpanExporter();
    const again = await startTracing({ otel, spanProcessors: [new SimpleSpanProcessor(second)] });
    await inSpan('second', {}, async () => {});
    const recorded = second.getFinishedSpans().map((s) => s.name);
    await again!.shutdown();
    expect(recorded).toEqual(['second']);
  });

  it('marks a span failed with the error code, never the message', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = await startTracing({ otel, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const failure = Object.assign(new Error('no such name alice.eth'), { code: 'NOT_FOUND' });
    await expect(inSpan('failing', {}, async () => Promise.reject(failure))).rejects.toBe(failure);
    const [span] = exporter.getFinishedSpans();
    await tracing!.shutdown();
    expect(span!.status).toEqual({ code: 2, message: 'NOT_FOUND' });
    expect(JSON.stringify(span!.events)).not.toContain('alice.eth');
  });
});
