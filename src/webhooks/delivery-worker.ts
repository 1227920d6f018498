import http from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import type { WebhookAttemptTallies } from '../observability/webhook-tallies.js';
import type { Store } from '../store/store.js';
import type { ClaimedDelivery, DeliveryAttempt } from '../store/webhook-store.js';
import { NonPublicTargetError, publicAddressLookup } from './public-address-lookup.js';
import { signDelivery } from './sign-delivery.js';
import { assertDeliverableShape } from './webhook-url.js';

/** The delivery policy (docs/webhooks.md#delivery-and-signatures); the defaults are the documented ones. */
export interface DeliveryPolicy {
  /** An attempt without an answer by then fails (10 s). */
  timeoutMs: number;
  /** First retry after about this long, doubling each time (with ±20 % jitter), at most an hour apart. */
  retryBaseMs: number;
  /** Retries stop this long after the event was recorded (24 h); the delivery then fails. */
  retryWindowMs: number;
  /** A webhook whose every attempt failed for this long is disabled (3 days). */
  disableAfterMs: number;
  /** How often the outbox is polled for due deliveries, besides being woken when events are recorded. */
  pollMs: number;
  /** WEBHOOK_ALLOW_LOCAL_URLS: http and private targets allowed (development); else re-checked before each attempt. */
  allowLocalUrls: boolean;
}

export const DEFAULT_DELIVERY_POLICY: Omit<DeliveryPolicy, 'pollMs' | 'allowLocalUrls' | 'retryBaseMs'> = {
  timeoutMs: 10_000,
  retryWindowMs: 24 * 3_600_000,
  disableAfterMs: 3 * 86_400_000,
};

const MAX_RETRY_GAP_MS = 3_600_000;
/** Deliveries one claim takes; more are sent in the next round straight away. */
const CLAIM_BATCH = 20;

export interface DeliveryWorker {
  /** Looks at the outbox now (events were just recorded on this instance). */
  kick(): void;
  /** Stops claiming; attempts in flight are abandoned, and their leases expire so another claim sends them again. */
  stop(): Promise<void>;
}

/**
 * When the delivery should be tried again after its `attempts`-th failure: exponential backoff with jitter, never past
 * the retry window (one last attempt at its end); null once the window is over.
 * @example nextAttemptAt({ attempts: 1, createdAt, now, policy }) // ≈ now + 5 s
 */
export function nextAttemptAt(p: {
  attempts: number;
  createdAt: number;
  now: number;
  policy: Pick<DeliveryPolicy, 'retryBaseMs' | 'retryWindowMs'>;
  random?: () => number;
}): number | null {
  const end = p.createdAt + p.policy.retryWindowMs;
  if (p.now >= end) return null;
  const gap = Math.min(p.policy.retryBaseMs * 2 ** Math.min(p.attempts - 1, 30), MAX_RETRY_GAP_MS);
  const jittered = gap * (0.8 + 0.4 * (p.random ?? Math.random)());
  return Math.min(p.now + Math.round(jittered), end);
}

/**
 * Why an attempt failed, in words a webhook owner can act on. Never the request's headers (they hold signatures), and
 * never the socket's own error (refused, reset, TLS): echoed to the owner it would tell open ports from closed ones.
 */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  if (err instanceof NonPublicTargetError) return err.message;
  if (err instanceof Error && 'status' in err) return err.message;
  return 'could not connect and send the request';
}

/** The connections deliveries go through; with public targets only, each one made to the address its lookup checked. */
export interface DeliveryAgents {
  'http:': http.Agent;
  'https:': https.Agent;
}

/** Agents for deliveries: keep-alive, and unless local targets are allowed, {@link publicAddressLookup} as the resolver. */
export function deliveryAgents(allowLocalUrls: boolean): DeliveryAgents {
  const lookup = allowLocalUrls ? {} : { lookup: publicAddressLookup() };
  return {
    'http:': new http.Agent({ keepAlive: true, ...lookup }),
    'https:': new https.Agent({ keepAlive: true, ...lookup }),
  };
}

/** POSTs `body` to `url` through `agents`; resolves with the status code (the answer's body is read and dropped). */
function post(
  url: URL,
  p: { agents: DeliveryAgents; headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const agent = url.protocol === 'https:' ? p.agents['https:'] : p.agents['http:'];
    const req = send(url, { method: 'POST', agent, headers: p.headers, signal: p.signal }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(p.body);
  });
}

/** Sends one claimed delivery, signed; never throws. */
async function attempt(
  claim: ClaimedDelivery,
  policy: DeliveryPolicy,
  agents: DeliveryAgents,
  stopping: AbortSignal,
): Promise<DeliveryAttempt> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    // The shape here; a name's addresses when the connection is made (public-address-lookup.ts), not before.
    assertDeliverableShape(claim.url, { allowLocal: policy.allowLocalUrls });
    const url = new URL(claim.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`unsupported scheme ${url.protocol}`);
    const { delivery } = claim;
    const status = await post(url, {
      agents,
      signal: AbortSignal.any([AbortSignal.timeout(policy.timeoutMs), stopping]),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'chain-identity-api-webhooks/1',
        'x-webhook-event': delivery.eventType,
        ...signDelivery({
          secret: claim.secret,
          messageId: delivery.eventId,
          body: delivery.payload,
          timestampSeconds: Math.floor(Date.now() / 1000),
        }),
      },
      body: delivery.payload,
    });
    const ok = status >= 200 && status < 300;
    return { ok, responseCode: status, latencyMs: elapsed(), error: ok ? null : `HTTP ${status}` };
  } catch (err) {
    return { ok: false, responseCode: null, latencyMs: elapsed(), error: describeFailure(err, policy.timeoutMs) };
  }
}

/**
 * Sends the outbox's due deliveries: claims a batch (leased for longer than an attempt can take), sends each signed,
 * and records the outcome; polls every `pollMs` and whenever kicked. Several instances may run one each.
 * @example const worker = startDeliveryWorker({ store, logger, policy }); …; await worker.stop()
 */
export function startDeliveryWorker(p: {
  store: Store;
  logger: Logger;
  policy: DeliveryPolicy;
  now?: () => number;
  /** Each attempt's outcome, for /metrics. */
  attempts?: WebhookAttemptTallies;
}): DeliveryWorker {
  const now = p.now ?? Date.now;
  const { policy } = p;
  const agents = deliveryAgents(policy.allowLocalUrls);
  const leaseMs = policy.timeoutMs + 20_000;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const send = async (claim: ClaimedDelivery): Promise<void> => {
    const result = await attempt(claim, policy, agents, stopping.signal);
    if (stopping.signal.aborted) return;
    p.attempts?.attempted(result.ok);
    const at = now();
    const retryAt = result.ok
      ? null
      : nextAttemptAt({ attempts: claim.delivery.attempts + 1, createdAt: claim.delivery.createdAt, now: at, policy });
    await p.store.finishDelivery({
      id: claim.delivery.id,
      lease: claim.lease,
      attempt: result,
      retryAt,
      disableAfterMs: policy.disableAfterMs,
      now: at,
    });
    p.logger.debug(
      { delivery: claim.delivery.id, webhook: claim.delivery.webhookId, ok: result.ok, code: result.responseCode },
      'webhook delivery attempt',
    );
  };

  const round = async (): Promise<void> => {
    do {
      again = false;
      const claimed = await p.store.claimDeliveries({ now: now(), leaseMs, limit: CLAIM_BATCH });
      await Promise.all(claimed.map((c) => send(c).catch((err) => p.logger.warn({ err }, 'webhook delivery'))));
      if (claimed.length === CLAIM_BATCH) again = true;
    } while (again && !stopping.signal.aborted);
  };

  const run = (): void => {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = round()
      .catch((err) => p.logger.warn({ err }, 'webhook outbox unavailable'))
      .finally(() => {
        running = undefined;
        if (!stopping.signal.aborted) timer = setTimeout(run, again ? 0 : policy.pollMs);
      });
  };
  timer = setTimeout(run, 0);

  return {
    kick: run,
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
