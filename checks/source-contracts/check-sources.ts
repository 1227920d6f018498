import type { AppConfig } from '../../src/config/config.js';
import { describeUpstreamFailure } from '../../src/sources/upstream-failure.js';
import type { SourceProbe } from './source-probe.js';
import { sourceProbes } from './source-probes.js';
import type { SentRequest } from './vendor-contract.js';
import { loadVendorContract, requestExpectations, vendorContractSpec } from './vendor-contracts.js';

/** What one configured upstream answered to its probe. */
export interface SourceCheck {
  /** The source's name in /api/sources/health. */
  source: string;
  /** The contract it was checked against. */
  vendor: string;
  /** The configured origin (never a path: paths may hold keys). */
  origin: string;
  /** An HTTP reply came back (of any status). */
  reachable: boolean;
  /** Our key was accepted (`yes`), refused (`no`), not needed, not set, or could not be told (5xx, 429, no reply). */
  authenticated: 'yes' | 'no' | 'no key needed' | 'no key set' | 'unknown';
  /** The request and the reply are what the contract describes. */
  contract: 'matches' | 'differs' | 'no reply';
  /** HTTP status of the reply, or null without one. */
  status: number | null;
  /** What went wrong, in words: network error, refusal, contract differences. */
  problems: string[];
  /** Reachable, not refused, matching the contract, and a 2xx/3xx reply. */
  ok: boolean;
}

interface Exchange {
  request: SentRequest;
  status?: number;
  text?: string;
  error?: string;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** A fetch that keeps what was sent and what came back (the reply is cloned: the client reads it as usual). */
function recordingFetch(base: typeof fetch, exchanges: Exchange[], timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const exchange: Exchange = {
      request: { method: (init?.method ?? 'GET').toUpperCase(), url, headers: headersOf(init) },
    };
    exchanges.push(exchange);
    try {
      const response = await base(input, init);
      exchange.status = response.status;
      exchange.text = await response.clone().text();
      return response;
    } catch (err) {
      exchange.error = describeUpstreamFailure(err, timeoutMs);
      throw err;
    }
  };
}

/** Etherscan refuses a key inside a 200 reply: `{status: "0", result: "Invalid API Key …"}`. */
function refusedInBand(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { status, result } = body as { status?: unknown; result?: unknown };
  return status === '0' && typeof result === 'string' && /api key/i.test(result);
}

function authentication(probe: SourceProbe, status: number | undefined, body: unknown): SourceCheck['authenticated'] {
  if (status === undefined || status === 429 || status >= 500) return 'unknown';
  if (status === 401 || status === 403 || refusedInBand(body)) return 'no';
  if (probe.key === 'none') return 'no key needed';
  if (probe.key === 'checked' && probe.credential === undefined) return 'no key set';
  return 'yes';
}

/** Checks the one exchange of a probe: the request against its operation, the reply against the operation's schema. */
function judge(probe: SourceProbe, exchange: Exchange | undefined): SourceCheck {
  const origin = new URL(probe.baseUrl).origin;
  const base = { source: probe.source, vendor: probe.vendor, origin };
  if (exchange?.status === undefined) {
    const problems = [exchange ? (exchange.error ?? 'no reply') : 'no request was sent'];
    return {
      ...base,
      reachable: false,
      authenticated: 'unknown',
      contract: 'no reply',
      status: null,
      problems,
      ok: false,
    };
  }
  const spec = vendorContractSpec(probe.vendor);
  const contract = loadVendorContract(probe.vendor);
  const expectations = requestExpectations(spec, probe.credential, probe.baseUrl);
  const problems = contract.checkRequest(exchange.request, expectations).map((p) => `request: ${p}`);
  let body: unknown;
  let json = true;
  try {
    body = JSON.parse(exchange.text ?? '');
  } catch {
    json = false;
    problems.push(`reply: HTTP ${exchange.status} with a body that is not JSON`);
  }
  const operation = contract.operationOf(exchange.request, expectations);
  if (json && operation) {
    const reply = contract.checkReply(operation, exchange.status, body);
    if (reply.documented) problems.push(...reply.errors.slice(0, 5).map((e) => `reply: ${e}`));
    else if (exchange.status < 400) problems.push(`reply: ${operation.path} documents no ${exchange.status} reply`);
    else if (spec.errorReplies)
      problems.push(
        ...contract
          .checkAgainst(spec.errorReplies.schema, body)
          .slice(0, 5)
          .map((e) => `reply: ${e}`),
      );
    const result = (body as { result?: unknown }).result;
    if (probe.expectedChainId !== undefined && typeof result === 'string' && Number(result) !== probe.expectedChainId)
      problems.push(`reply: chain id ${Number(result)}, not ${probe.expectedChainId}`);
  }
  const authenticated = authentication(probe, exchange.status, body);
  if (authenticated === 'no') problems.unshift(`the upstream refused the key (HTTP ${exchange.status})`);
  else if (exchange.status >= 400) problems.unshift(`HTTP ${exchange.status}`);
  const matches = !problems.some((p) => p.startsWith('request:') || p.startsWith('reply:'));
  return {
    ...base,
    reachable: true,
    authenticated,
    contract: matches ? 'matches' : 'differs',
    status: exchange.status,
    problems,
    ok: matches && authenticated !== 'no' && exchange.status < 400,
  };
}

/**
 * `npm run sources:check`: one cheap request to every upstream the configuration makes live, each reported as
 * reachable, authenticated and matching its vendor's contract. Probes run one after another (no burst on a key).
 * @example for (const check of await checkSources({ config: loadConfig(process.env) })) console.log(check.source, check.ok)
 */
export async function checkSources(p: { config: AppConfig; fetch?: typeof fetch }): Promise<SourceCheck[]> {
  const results: SourceCheck[] = [];
  for (const probe of sourceProbes(p.config)) {
    const exchanges: Exchange[] = [];
    try {
      await probe.send(recordingFetch(p.fetch ?? fetch, exchanges, p.config.upstreamTimeoutMs));
    } catch {
      // What was exchanged tells what went wrong; the client's own error (503) adds nothing.
    }
    results.push(judge(probe, exchanges[0]));
  }
  return results;
}
