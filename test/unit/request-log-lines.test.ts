import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { InfoLinesWhenWritten, withLazyRequestLoggers } from '../../src/http/fastify-server.js';
import { createLogger } from '../../src/logging/logger.js';
import { requestLoggerFactory } from '../../src/logging/request-logger.js';

/** A real pino logger at `level` and the JSON lines it writes. */
function collected(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger(level, [], sink), lines };
}

/** A fastify app logging as the service does (lazy request loggers, this controller) into collected JSON lines. */
function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger(level, [], sink);
  const infoCalls: string[] = [];
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: (l, b, o) => {
      const log = requestLoggerFactory(l as Logger, b, o);
      const info = log.info.bind(log);
      log.info = ((...args: Parameters<Logger['info']>) => {
        infoCalls.push(String(args[1] ?? args[0]));
        info(...args);
      }) as Logger['info'];
      return log;
    },
    logController: new InfoLinesWhenWritten(),
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  return { app, lines, infoCalls };
}

describe("fastify's per-request log lines", () => {
  it('are written at info, as fastify writes them', async () => {
    const { app, lines } = appLoggingAt('info');
    try {
      await app.inject({ method: 'GET', url: '/ok' });
      expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      expect(lines[1]).toEqual(expect.objectContaining({ res: { statusCode: 200 }, responseTime: expect.any(Number) }));
    } finally {
      await app.close();
    }
  });

  it('are not even asked of the request logger at warn (no objects built for lines that are dropped)', async () => {
    const { app, lines, infoCalls } = appLoggingAt('warn');
    try {
      await app.inject({ method: 'GET', url: '/ok' });
      expect(infoCalls).toEqual([]);
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('still log a failed request at error, at warn', async () => {
    const { app, lines } = appLoggingAt('warn');
    try {
      const res = await app.inject({ method: 'GET', url: '/fails' });
      expect(res.statusCode).toBe(500);
      expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'boom']]);
    } finally {
      await app.close();
    }
  });
});

describe('withLazyRequestLoggers', () => {
  it("makes a pino child for a request only once it writes a line, bound to that request's id", async () => {
    const { logger, lines } = collected('warn');
    const child = vi.spyOn(logger, 'child');
    const app = Fastify({ loggerInstance: withLazyRequestLoggers(logger), logController: new InfoLinesWhenWritten() });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/warns', async (request) => {
      request.log.warn('slow');
      return { id: request.id };
    });
    try {
      await app.ready();
      const made = child.mock.calls.length; // fastify's root logger
      await app.inject({ method: 'GET', url: '/quiet' });
      await app.inject({ method: 'GET', url: '/quiet' });
      expect(child.mock.calls.length).toBe(made);
      const res = await app.inject({ method: 'GET', url: '/warns' });
      expect(child.mock.calls.length).toBe(made + 1);
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, msg: 'slow', reqId: res.json<{ id: string }>().id }),
      ]);
    } finally {
      await app.close();
    }
  });

  it("writes fastify's own request lines with its serializers at info", async () => {
    const { logger, lines } = collected('info');
    const app = Fastify({ loggerInstance: withLazyRequestLoggers(logger), logController: new InfoLinesWhenWritten() });
    app.get('/ok', async () => ({ ok: true }));
    try {
      await app.inject({ method: 'GET', url: '/ok' });
      expect(lines.map((l) => [l.msg, typeof l.reqId])).toEqual([
        ['incoming request', 'string'],
        ['request completed', 'string'],
      ]);
      expect(lines[0]).toEqual(
        expect.objectContaining({ req: expect.objectContaining({ method: 'GET', url: '/ok' }) }),
      );
      expect(lines[1]).toEqual(expect.objectContaining({ res: { statusCode: 200 } }));
    } finally {
      await app.close();
    }
  });
});
