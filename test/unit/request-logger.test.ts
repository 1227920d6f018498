import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { requestLoggerFactory } from '../../src/logging/request-logger.js';

/** A real pino logger at `level` whose JSON lines are collected instead of written to stdout. */
function captured(level: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger(level, [], sink);
  return { logger, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a request logger', () => {
  it('writes nothing and makes no pino child for a line below the level', () => {
    const { logger, parsed } = captured('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLoggerFactory(logger, { reqId: 'req-1' }, {});

    log.info('hello');
    log.debug({ extra: 1 }, 'details');
    log.trace('deep');

    expect(parsed()).toEqual([]);
    expect(child).not.toHaveBeenCalled();
  });

  it('writes a warn line that carries the request bindings and the message', () => {
    const { logger, parsed } = captured('warn');
    const log = requestLoggerFactory(logger, { reqId: 'req-2' }, {});

    log.warn('slow upstream');

    expect(parsed()).toEqual([expect.objectContaining({ level: 40, reqId: 'req-2', msg: 'slow upstream' })]);
  });

  it('writes an error line with its object fields, the request bindings and the message', () => {
    const { logger, parsed } = captured('warn');
    const log = requestLoggerFactory(logger, { reqId: 'req-3' }, {});

    log.error({ source: 'alchemy' }, 'upstream failed');

    expect(parsed()).toEqual([
      expect.objectContaining({ level: 50, reqId: 'req-3', source: 'alchemy', msg: 'upstream failed' }),
    ]);
  });

  it('makes the pino child once, however many lines are written', () => {
    const { logger, parsed } = captured('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLoggerFactory(logger, { reqId: 'req-4' }, {});

    log.warn('one');
    log.info('skipped');
    log.error('two');
    log.fatal('three');

    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'req-4' }, {});
    expect(parsed().map((line) => [line.msg, line.reqId])).toEqual([
      ['one', 'req-4'],
      ['two', 'req-4'],
      ['three', 'req-4'],
    ]);
  });

  it('reports the level and the enabled levels of its parent', () => {
    const { logger } = captured('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLoggerFactory(logger, { reqId: 'req-5' }, {});

    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('warn')).toBe(true);
    expect(log.isLevelEnabled('error')).toBe(true);

    logger.level = 'debug';
    expect(log.level).toBe('debug');
    expect(log.isLevelEnabled('debug')).toBe(true);
    expect(log.isLevelEnabled('trace')).toBe(false);
    // Asking is not writing: still no child.
    expect(child).not.toHaveBeenCalled();
  });

  it("follows a route's own log level when it is more verbose than the process's", () => {
    const { logger, parsed } = captured('warn');
    const log = requestLoggerFactory(logger, { reqId: 'req-7' }, { level: 'debug' });

    log.debug('route detail');

    expect(log.level).toBe('debug');
    expect(parsed()).toMatchObject([{ reqId: 'req-7', msg: 'route detail', level: 20 }]);
  });

  it('gives child loggers whose lines also carry the request bindings', () => {
    const { logger, parsed } = captured('info');
    const log = requestLoggerFactory(logger, { reqId: 'req-6' }, {});

    const sub = log.child({ component: 'ens' });
    sub.info('resolved');

    expect(parsed()).toEqual([expect.objectContaining({ reqId: 'req-6', component: 'ens', msg: 'resolved' })]);
  });

  it('returns its bindings, request id included', () => {
    const { logger } = captured('warn');
    const log = requestLoggerFactory(logger, { reqId: 'req-7' }, {});

    expect(log.bindings()).toEqual(expect.objectContaining({ reqId: 'req-7' }));
  });

  it('keeps scrubbing and redaction of the process logger', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('warn', ['sk_live_SECRET'], sink);
    const log = requestLoggerFactory(logger, { reqId: 'req-8' }, {});

    log.warn({ req: { headers: { authorization: 'Bearer eyJ.secret' } } }, 'bad key sk_live_SECRET');

    const text = lines.join('');
    expect(text).toContain('"reqId":"req-8"');
    expect(text).not.toContain('sk_live_SECRET');
    expect(text).not.toContain('eyJ.secret');
  });
});

describe('request.log in fastify', () => {
  it('writes the request id of the request that logged the line', async () => {
    const { logger, parsed } = captured('warn');
    const app = Fastify({
      loggerInstance: logger,
      childLoggerFactory: (l, b, o) => requestLoggerFactory(l as Logger, b, o),
    });
    app.get('/warn', async (request) => {
      request.log.warn('x');
      return { id: request.id };
    });
    try {
      const first = await app.inject({ method: 'GET', url: '/warn' });
      const second = await app.inject({ method: 'GET', url: '/warn' });
      const ids = [first.json<{ id: string }>().id, second.json<{ id: string }>().id];

      expect(ids[0]).not.toBe(ids[1]);
      // At level warn fastify's own "incoming request" / "request completed" info lines are not written.
      expect(parsed().map((line) => [line.msg, line.reqId])).toEqual([
        ['x', ids[0]],
        ['x', ids[1]],
      ]);
    } finally {
      await app.close();
    }
  });
});
