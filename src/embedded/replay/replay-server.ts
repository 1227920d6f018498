import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ReplayUrls } from '../../sources/http-upstream.js';
import { loadReplayFixtures, type ReplayEntry, type ReplayFixtures } from './replay-fixtures.js';
import { selectReplayEntry } from './replay-matcher.js';

export { defaultRecordingsDir } from './recordings-dir.js';
export { InvalidReplayFixtureError } from './replay-fixtures.js';

/** A running replay of recorded upstream replies; each source lives under `${url}/${source}`. */
export interface ReplayServer extends ReplayUrls {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Activates a recorded scenario ('down', 'slow', 'rate-limited', 'malformed' …) for one source; null restores normal replies. */
  setScenario(source: string, scenario: string | null): void;
  /** Requests received for one source, or for all sources (control requests not counted). */
  requestCount(source?: string): number;
  /** The most delayed ('slow') replies held at one time: 3 means three callers waited side by side, not in turn. */
  mostHeldAtOnce(): number;
  /** Resets the request counts and {@link ReplayServer.mostHeldAtOnce}. */
  resetCounts(): void;
  close(): Promise<void>;
}

/** Parameters of {@link startReplayServer}. */
export interface StartReplayServerParams {
  recordingsDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

/** Thrown when a scenario is activated that no fixture of the source records (usually a typo). */
export class UnknownReplayScenarioError extends Error {
  override name = 'UnknownReplayScenarioError';
  constructor(
    readonly source: string,
    readonly scenario: string,
  ) {
    super(`source "${source}" records no scenario "${scenario}"`);
  }
}

const CONTROL_PREFIX = '/__replay/';
const MAX_CONTROL_BODY_BYTES = 64 * 1024;
const scenarioRequestSchema = z.strictObject({ source: z.string().min(1), scenario: z.string().min(1).nullable() });

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readSmallBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CONTROL_BODY_BYTES) {
        reject(new Error('control body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** Writes one recorded reply exactly as recorded. */
function sendRecordedReply(res: ServerResponse, response: ReplayEntry['response']): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload: string | undefined;
  if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json; charset=utf-8';
  } else if (response.bodyText !== undefined) {
    payload = response.bodyText;
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'text/plain; charset=utf-8';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
}

/**
 * Serves recorded upstream replies from `<recordingsDir>/<source>/*.json` on loopback, for tests and for
 * the embedded default (`npm start` without network). Fixture files are validated at start.
 * @example
 * const replay = await startReplayServer({ recordingsDir: defaultRecordingsDir() })
 * const coingecko = new HttpJsonSource({ baseUrl: replay.baseUrlFor('coingecko'), client })
 * replay.setScenario('coingecko', 'down')
 */
export async function startReplayServer(params: StartReplayServerParams): Promise<ReplayServer> {
  const fixtures: ReplayFixtures = loadReplayFixtures(params.recordingsDir);
  const host = params.host ?? '127.0.0.1';
  const scenarios = new Map<string, string>();
  const counts = new Map<string, number>();
  const pendingReplies = new Set<NodeJS.Timeout>();
  let mostHeld = 0;

  const setScenario = (source: string, scenario: string | null): void => {
    if (scenario === null) {
      scenarios.delete(source);
      return;
    }
    const recorded = (fixtures.get(source) ?? []).some((e) => e.scenario === scenario);
    if (!recorded) throw new UnknownReplayScenarioError(source, scenario);
    scenarios.set(source, scenario);
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === 'POST' && path === `${CONTROL_PREFIX}scenario`) {
      let parsed: z.infer<typeof scenarioRequestSchema>;
      try {
        parsed = scenarioRequestSchema.parse(JSON.parse(await readSmallBody(req)));
        setScenario(parsed.source, parsed.scenario);
      } catch (err) {
        return sendJson(res, 400, {
          error: err instanceof UnknownReplayScenarioError ? err.message : 'expected { source, scenario }',
        });
      }
      return sendJson(res, 200, parsed);
    }
    if (req.method === 'GET' && path === `${CONTROL_PREFIX}counts`) {
      return sendJson(res, 200, Object.fromEntries(counts));
    }
    sendJson(res, 404, { error: 'unknown replay control route' });
  };

  const handleReplay = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const [, rawSource = '', ...rest] = url.pathname.split('/');
    const source = decodeURIComponent(rawSource);
    counts.set(source, (counts.get(source) ?? 0) + 1);
    const entries = fixtures.get(source) ?? [];
    // Only a source recorded by body fields has its request bodies read.
    const body = entries.some((e) => e.request.body !== undefined)
      ? jsonOrUndefined(await readSmallBody(req))
      : undefined;
    const entry = selectReplayEntry(
      entries,
      { method: req.method ?? 'GET', path: `/${rest.join('/')}`, query: url.searchParams, body },
      scenarios.get(source) ?? null,
    );
    if (entry === undefined) {
      sendJson(res, 404, { error: 'no recorded reply' });
      return;
    }
    const delayMs = entry.response.delayMs ?? 0;
    if (delayMs === 0) {
      sendRecordedReply(res, entry.response);
      return;
    }
    const timer = setTimeout(() => {
      pendingReplies.delete(timer);
      if (!res.destroyed) sendRecordedReply(res, entry.response);
    }, delayMs);
    pendingReplies.add(timer);
    mostHeld = Math.max(mostHeld, pendingReplies.size);
    // A client that gave up (timeout) should not keep a timer alive.
    res.on('close', () => {
      clearTimeout(timer);
      pendingReplies.delete(timer);
    });
  };

  const server = createServer((req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://replay.invalid');
      if (url.pathname.startsWith(CONTROL_PREFIX)) {
        handleControl(req, res, url.pathname).catch(() => {
          if (!res.headersSent) sendJson(res, 500, { error: 'replay control failed' });
        });
        return;
      }
      handleReplay(req, res, url).catch(() => {
        if (!res.headersSent) sendJson(res, 400, { error: 'bad request' });
      });
    } catch {
      // e.g. a malformed percent-encoding: a bad request must not take the server down.
      if (!res.headersSent) sendJson(res, 400, { error: 'bad request' });
    }
  });
  // Idle connections are closed by the client, never here: a server-side close (Node's default after 5 s) races a
  // client reusing that connection once a stalled event loop wakes up, and the request dies with ECONNRESET.
  server.keepAliveTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(params.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    baseUrlFor: (source) => `${url}/${encodeURIComponent(source)}`,
    setScenario,
    requestCount: (source) =>
      source === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(source) ?? 0),
    mostHeldAtOnce: () => mostHeld,
    resetCounts: () => {
      counts.clear();
      mostHeld = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pendingReplies) clearTimeout(timer);
        pendingReplies.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
