import { describe, expect, it } from 'vitest';
import type { AccessDecision } from '../../src/access/access-gate.js';
import { ApiError } from '../../src/errors/api-error.js';
import { runAdmitted } from '../../src/http/run-admitted.js';

/** A decision that writes down, in order, what is done with it. */
function recordedDecision(steps: string[], paid: boolean): AccessDecision {
  const receipt = { success: true, transaction: '0xabc', network: 'eip155:8453', payer: '0x1' };
  return {
    caller: null,
    headers: { 'X-RateLimit-Limit': '100' },
    release: () => steps.push('release'),
    ...(paid
      ? {
          settle: async () => {
            steps.push('settle');
            return { headers: { 'X-PAYMENT-RESPONSE': 'r' }, receipt: receipt as never };
          },
        }
      : {}),
  };
}

describe('every surface admits a call the one way: admit → run → settle → release', () => {
  it('runs after admission, settles a paid call once its answer is ready, then gives the slot back', async () => {
    const steps: string[] = [];
    const done = await runAdmitted({
      admit: async () => {
        steps.push('admit');
        return recordedDecision(steps, true);
      },
      run: async () => {
        steps.push('run');
        return 'answer';
      },
    });
    expect(steps).toEqual(['admit', 'run', 'settle', 'release']);
    expect(done.value).toBe('answer');
    expect(done.settled?.headers).toEqual({ 'X-PAYMENT-RESPONSE': 'r' });
  });

  it('does not charge an answer that is not worth its price (a GraphQL answer with errors)', async () => {
    const steps: string[] = [];
    const done = await runAdmitted({
      admit: async () => recordedDecision(steps, true),
      run: async () => ({ succeeded: false }),
      paid: (answer) => answer.succeeded,
    });
    expect(steps).toEqual(['release']);
    expect(done.settled).toBeUndefined();
  });

  it('gives the slot back when the run fails, and settles nothing', async () => {
    const steps: string[] = [];
    await expect(
      runAdmitted({
        admit: async () => recordedDecision(steps, true),
        run: async () => {
          throw new ApiError('NOT_FOUND', 'no such name');
        },
      }),
    ).rejects.toThrow('no such name');
    expect(steps).toEqual(['release']);
  });

  it('hands the slot to holdSlot when asked (REST: until the response is written) and does not release it itself', async () => {
    const steps: string[] = [];
    let held: (() => void) | undefined;
    const decision = { ...recordedDecision(steps, false), release: () => steps.push('release') };
    await runAdmitted({ admit: async () => decision, run: async () => 'x', holdSlot: (release) => (held = release) });
    expect(steps).toEqual([]);
    held!();
    expect(steps).toEqual(['release']);
  });

  it('answers a refusal through `refused` when given one, else throws it', async () => {
    const refusal = new ApiError('RATE_LIMITED', 'slow down');
    const answered = await runAdmitted({
      admit: async () => Promise.reject(refusal),
      run: async () => 'never',
      refused: (err) => `refused: ${(err as ApiError).code}`,
    });
    expect(answered).toEqual({ value: 'refused: RATE_LIMITED' });
    await expect(runAdmitted({ admit: async () => Promise.reject(refusal), run: async () => 'never' })).rejects.toBe(
      refusal,
    );
  });
});
