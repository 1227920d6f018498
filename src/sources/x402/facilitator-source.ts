import { serviceUnavailable } from '../../errors/api-error.js';
import { HttpJsonSource } from '../http-json-source.js';
import { SourceClient } from '../source-client.js';
import type { SourceHealthRegistry, SourceMode } from '../source-health.js';

/** What is sent to a facilitator: one payment payload and the requirement it answers (x402 v1 or v2 shapes). */
export interface FacilitatorRequest {
  x402Version: 1 | 2;
  paymentPayload: Record<string, unknown>;
  paymentRequirements: Record<string, unknown>;
}

/** POST /verify's answer. */
export interface FacilitatorVerifyAnswer {
  isValid: boolean;
  invalidReason?: string;
  payer?: string;
}

/** POST /settle's answer. */
export interface FacilitatorSettleAnswer {
  success: boolean;
  errorReason?: string;
  payer?: string;
  transaction: string;
  network: string;
}

/** An x402 facilitator as an upstream source: timeout, breaker and health like any other; never retried (settling twice is not safe). */
export interface FacilitatorSource {
  mode: SourceMode;
  verify(request: FacilitatorRequest): Promise<FacilitatorVerifyAnswer>;
  settle(request: FacilitatorRequest): Promise<FacilitatorSettleAnswer>;
}

const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function toVerifyAnswer(json: unknown): FacilitatorVerifyAnswer {
  const o = json as Record<string, unknown>;
  if (!o || typeof o.isValid !== 'boolean') throw new Error('not a verify answer');
  const invalidReason = optionalString(o.invalidReason);
  const payer = optionalString(o.payer);
  return { isValid: o.isValid, ...(invalidReason ? { invalidReason } : {}), ...(payer ? { payer } : {}) };
}

function toSettleAnswer(json: unknown): FacilitatorSettleAnswer {
  const o = json as Record<string, unknown>;
  if (!o || typeof o.success !== 'boolean') throw new Error('not a settle answer');
  if (o.success && (typeof o.transaction !== 'string' || o.transaction === ''))
    throw new Error('settled without a transaction');
  const errorReason = optionalString(o.errorReason);
  const payer = optionalString(o.payer);
  return {
    success: o.success,
    transaction: typeof o.transaction === 'string' ? o.transaction : '',
    network: typeof o.network === 'string' ? o.network : '',
    ...(errorReason ? { errorReason } : {}),
    ...(payer ? { payer } : {}),
  };
}

/**
 * The x402 facilitator client (x402 facilitator HTTP API: POST /verify, POST /settle), registered in the source health
 * registry as `x402-facilitator` (kind `payments`, mode local for the embedded facilitator). A timeout, a 5xx or a
 * malformed answer is a 503 for the paying caller, who is then neither served nor charged.
 * @example const facilitator = createFacilitatorSource({ url, mode: 'live', registry, timeoutMs: 5000 }); await facilitator.verify(request)
 */
export function createFacilitatorSource(p: {
  url: string;
  mode: SourceMode;
  registry: SourceHealthRegistry;
  timeoutMs: number;
  fetch?: typeof fetch;
}): FacilitatorSource {
  const client = new SourceClient({
    policy: {
      name: 'x402-facilitator',
      kind: 'payments',
      mode: p.mode,
      description:
        p.mode === 'local' ? 'embedded x402 facilitator settling on the embedded Base chain' : 'x402 facilitator',
      freshnessMs: 0,
      timeoutMs: p.timeoutMs,
      retries: 0,
    },
    registry: p.registry,
  });
  const http = new HttpJsonSource({ baseUrl: p.url, client, ...(p.fetch ? { fetch: p.fetch } : {}) });
  const answered = <T>(value: T | null, what: string): T => {
    // A 404 reads as null: a facilitator without this endpoint is as good as none.
    if (value === null) throw serviceUnavailable(`x402-facilitator has no ${what}`);
    return value;
  };
  return {
    mode: p.mode,
    async verify(request) {
      return answered(await http.postMapped('/verify', request, toVerifyAnswer), '/verify');
    },
    async settle(request) {
      return answered(await http.postMapped('/settle', request, toSettleAnswer), '/settle');
    },
  };
}
