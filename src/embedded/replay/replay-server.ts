import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ReplayUrls } from '../../sources/http-upstream.js';
import { loadReplayFixtures, type ReplayFixtures } from './replay-fixtures.js';
import { HeldReplies, jsonOrUndefined, readSmallBody, sendJson, sendRecordedReply } from './replay-http.js';
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
const scenarioRequestSchema = z.strictObject({ source: z.string().min(1), scenario: z.string().min(1).nullable() });

/** What a running replay keeps: its fixtures, each source's active scenario and request count, the held replies. */
interface ReplayState {
  fixtures: ReplayFixtures;
  scenarios: Map<string, string>;
  counts: Map<string, number>;
  held: HeldReplies;
}

function setScenario(state: ReplayState, source: string, scenario: string | null): void {
  if (scenario === null) {
    state.scenarios.delete(source);
    return;
  }
  const recorded = (state.fixtures.get(source) ?? []).some((e) => e.scenario === scenario);
  if (!recorded) throw new UnknownReplayScenarioError(source, scenario);
  state.scenarios.set(source, scenario);
}

/** `POST /__replay/scenario` sets a source's scenario; `GET /__replay/counts` reads the request counts. */
async function handleControl(state: ReplayState, req: IncomingMessage, res: ServerResponse, path: string) {
  if (req.method === 'POST' && path === `${CONTROL_PREFIX}scenario`) {
    let parsed: z.infer<typeof scenarioRequestSchema>;
    try {
      parsed = scenarioRequestSchema.parse(JSON.parse(await readSmallBody(req)));
      setScenario(state, parsed.source, parsed.scenario);
    } catch (err) {
      return sendJson(res, 400, {
        error: err instanceof UnknownReplayScenarioError ? err.message : 'expected { source, scenario }',
      });
    }
    return sendJson(res, 200, parsed);
  }
  if (req.method === 'GET' && path === `${CONTROL_PREFIX}counts`) {
    return sendJson(res, 200, Object.fromEntries(state.counts));
  }
  sendJson(res, 404, { error: 'unknown replay control route' });
}

/** `/<source>/<path>`: counted, then answered with the recorded reply that matches (after its delay, if any). */
async function handleReplay(state: ReplayState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, rawSource = '', ...rest] = url.pathname.split('/');
  const source = decodeURIComponent(rawSource);
  state.counts.set(source, (state.counts.get(source) ?? 0) + 1);
  const entries = state.fixtures.get(source) ?? [];
  // Only a source recorded by body fields has its request bodies read.
  const body = entries.some((e) => e.request.body !== undefined)
    ? jsonOrUndefined(await readSmallBody(req))
    : undefined;
  const entry = selectReplayEntry(
    entries,
    { method: req.method ?? 'GET', path: `/${rest.join('/')}`, query: url.searchParams, body },
    state.scenarios.get(source) ?? null,
  );
  if (entry === undefined) {
    sendJson(res, 404, { error: 'no recorded reply' });
    return;
  }
  const delayMs = entry.response.delayMs ?? 0;
  if (delayMs === 0) sendRecordedReply(res, entry.response);
  else state.held.hold(res, delayMs, () => sendRecordedReply(res, entry.response));
}

/** Control routes under /__replay/, recorded replies elsewhere; a request that fails is a 400 (500 for control). */
function replayRequests(state: ReplayState): RequestListener {
  return (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://replay.invalid');
      if (url.pathname.startsWith(CONTROL_PREFIX)) {
        handleControl(state, req, res, url.pathname).catch(() => {
          if (!res.headersSent) sendJson(res, 500, { error: 'replay control failed' });
        });
        return;
      }
      handleReplay(state, req, res, url).catch(() => {
        if (!res.headersSent) sendJson(res, 400, { error: 'bad request' });
      });
    } catch {
      // e.g. a malformed percent-encoding: a bad request must not take the server down.
      if (!res.headersSent) sendJson(res, 400, { error: 'bad request' });
    }
  };
}

/** Listens on `host:port` (0: a free one); resolves to the server's base URL. */
async function listenAt(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
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
  const state: ReplayState = {
    fixtures: loadReplayFixtures(params.recordingsDir),
    scenarios: new Map(),
    counts: new Map(),
    held: new HeldReplies(),
  };
  const server = createServer(replayRequests(state));
  // Idle connections are closed by the client, never here: a server-side close (Node's default after 5 s) races a
  // client reusing that connection once a stalled event loop wakes up, and the request dies with ECONNRESET.
  server.keepAliveTimeout = 0;
  const url = await listenAt(server, params.host ?? '127.0.0.1', params.port ?? 0);
  const { counts, held } = state;
  return {
    url,
    baseUrlFor: (source) => `${url}/${encodeURIComponent(source)}`,
    setScenario: (source, scenario) => setScenario(state, source, scenario),
    requestCount: (source) =>
      source === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(source) ?? 0),
    mostHeldAtOnce: () => held.mostAtOnce,
    resetCounts: () => {
      counts.clear();
      held.mostAtOnce = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        held.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
