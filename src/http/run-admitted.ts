import { type AccessDecision, noRelease } from '../access/access-gate.js';
import type { PaymentReceipt } from '../access/x402-settlement.js';

/** What a call produced once admitted (or refused), and its settled payment when it was paid with x402. */
export interface AdmittedCall<T> {
  value: T;
  /** Absent when the gate refused the call and `refused` answered it. */
  decision?: AccessDecision;
  /** Present when the call was paid and settled: the receipt and the headers that carry it (X-PAYMENT-RESPONSE …). */
  settled?: { headers: Record<string, string>; receipt: PaymentReceipt };
}

/**
 * THE way a call is admitted and answered, on every surface (REST rows and documents, POST /api/batch, MCP tools,
 * /graphql): admit → run → settle → release. x402 'exact': a paid call is settled once its answer is ready and before
 * it is sent (a failed settlement throws, and no data is sent); a call whose answer is not worth its price (`paid`
 * says no: a GraphQL answer with errors) is not charged. A credit an API key spent on the call (past its daily limit)
 * follows the same rule: given back when the run fails or the answer is not worth its price. An API key's concurrency slot is given back once the run and
 * the settlement are over, or handed to `holdSlot` (REST: until the response is written or the connection drops).
 * @example const { value, settled } = await runAdmitted({ admit: () => access.admit(req, route), run: () => render() })
 */
export async function runAdmitted<T>(p: {
  admit: () => Promise<AccessDecision>;
  run: (decision: AccessDecision) => T | Promise<T>;
  /** Whether a paid call's outcome is charged; absent: always (a failed call throws, so it never is). */
  paid?: (value: T) => boolean;
  /** Keeps the concurrency slot past this call and gives it back itself. */
  holdSlot?: (release: () => void) => void;
  /** Answers a refusal of the gate (401, 402, 429 …) itself; absent: the refusal is thrown. */
  refused?: (refusal: unknown) => T;
}): Promise<AdmittedCall<T>> {
  let decision: AccessDecision;
  try {
    decision = await p.admit();
  } catch (refusal) {
    if (!p.refused) throw refusal;
    return { value: p.refused(refusal) };
  }
  const held = p.holdSlot !== undefined && decision.release !== noRelease;
  if (held) p.holdSlot!(decision.release);
  // Whether the answer is charged: a failed run, or an answer not worth its price, is not (payment or credit).
  let charged = false;
  try {
    const value = await p.run(decision);
    if (p.paid && !p.paid(value)) return { value, decision };
    charged = true;
    if (!decision.settle) return { value, decision };
    return { value, decision, settled: await decision.settle() };
  } finally {
    // A payment never settled (the run or the settlement failed, or the answer was not worth its price) is given back,
    // and so is a credit spent on an answer that is not charged.
    decision.abandon?.();
    if (!charged) decision.refund?.();
    if (!held) decision.release();
  }
}
