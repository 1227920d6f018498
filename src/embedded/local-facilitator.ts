import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { toFacilitatorEvmSigner } from '@x402/evm';
import { type Address, type Chain, createWalletClient, defineChain, http, publicActions } from 'viem';
import type { settle as settleV1 } from 'x402/facilitator';
import type { PaymentPayload as PaymentPayloadV1, PaymentRequirements as PaymentRequirementsV1 } from 'x402/types';
import { MULTICALL3_ADDRESS, VIEM_CHAINS } from '../sources/rpc/viem-chains.js';
import { followWallClock } from './chain/chain-clock.js';
import { getDevAccounts } from './chain/dev-accounts.js';
import { BASE_CHAIN_ID, EMBEDDED_CHAIN_PLANS } from './chain/embedded-chain-plans.js';
import type { LocalChain, LocalChainLogger } from './chain/local-chain.js';
import { startSeededChain } from './chain/start-seeded-chain.js';

/**
 * How far the chain's latest block may fall behind wall time before a payment is verified or settled: well inside the
 * 600 s x402's clients date `validAfter` back by, which a simulation on an idle chain's old block would refuse.
 */
const MAX_CLOCK_LAG_SECONDS = 60;

/** A facilitator request body is one payload and one requirement: a few KB. */
const MAX_BODY_BYTES = 64 * 1024;

export interface LocalFacilitator {
  /** `http://127.0.0.1:<ephemeral port>`: POST /verify, POST /settle, GET /supported. */
  url: string;
  /** The embedded Base chain the facilitator settles on (chain id 8453, test USDC at USDC's Base address). */
  chain: LocalChain;
  /** What its seed deployed: USDC, Multicall3 and the Base names contracts (src/embedded/chain/seed-steps/base-names.ts). */
  deployments: ReadonlyMap<string, Address>;
  close(): Promise<void>;
}

class BadFacilitatorRequest extends Error {}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadFacilitatorRequest('body too large');
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadFacilitatorRequest('body is not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new BadFacilitatorRequest('body must be a JSON object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The x402 packages' facilitators over the chain, settling from development account 0. The packages (and the chain
 * list x402 1.x loads) take ~0.5 s to import: loaded on the first request, not on every start. v2: the x402
 * Foundation's current facilitator. v1: the x402 1.x package's own facilitator, which keeps v1's "value at least
 * maxAmountRequired" rule (the current v1 port requires the exact amount).
 */
async function loadFacilitators(viemChain: Chain, rpcUrl: string) {
  // Development account 0 settles; its key is derived here too (~0.2 s of HD derivation), not on every start.
  const account = getDevAccounts()[0]!;
  const wallet = createWalletClient({
    account,
    chain: viemChain,
    transport: http(rpcUrl, { retryCount: 0 }),
  }).extend(publicActions);
  const [{ x402Facilitator }, evm, { ExactEvmScheme }, v1] = await Promise.all([
    import('@x402/core/facilitator'),
    import('@x402/evm'),
    import('@x402/evm/exact/facilitator'),
    import('x402/facilitator'),
  ]);
  const signer = evm.toFacilitatorEvmSigner(
    Object.assign(wallet, { address: account.address }) as unknown as Parameters<typeof toFacilitatorEvmSigner>[0],
    { confirmationTimeoutMs: 10_000 },
  );
  const v1Client = wallet as unknown as Parameters<typeof settleV1>[0];
  return {
    v2: new x402Facilitator().register(`eip155:${BASE_CHAIN_ID}`, new ExactEvmScheme(signer)),
    verifyV1: (payload: PaymentPayloadV1, requirements: PaymentRequirementsV1) =>
      v1.verify(v1Client, payload, requirements),
    settleV1: (payload: PaymentPayloadV1, requirements: PaymentRequirementsV1) =>
      v1.settle(v1Client, payload, requirements),
  };
}

/**
 * The embedded default's x402 facilitator: a second anvil that reports Base's chain id (8453) with our EIP-3009
 * USDC at USDC's canonical Base address (every development account holds test USDC), and the x402 packages' own
 * facilitator code (v1: `x402/facilitator`; v2: `@x402/core` + `@x402/evm`) serving the facilitator HTTP API on an
 * ephemeral loopback port. Settlement is a real `transferWithAuthorization` transaction on that chain, sent by development
 * account 0; the chain records it (the payer's nonce is used, the receiver's balance grows). The same chain holds Base
 * names (demo.base.eth) and is the service's local `base` chain.
 * @example const facilitator = await startLocalFacilitator(); config X402 facilitator URL = facilitator.url
 */
export async function startLocalFacilitator(p: { logger?: LocalChainLogger } = {}): Promise<LocalFacilitator> {
  const chain = await startSeededChain(EMBEDDED_CHAIN_PLANS.base, p);
  const { deployments } = chain;
  try {
    const viemChain = defineChain({
      ...VIEM_CHAINS.base,
      name: 'Local Base',
      rpcUrls: { default: { http: [chain.rpcUrl] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    let loading: ReturnType<typeof loadFacilitators> | undefined;
    const facilitators = () => {
      loading ??= loadFacilitators(viemChain, chain.rpcUrl);
      return loading;
    };

    // One settling account: its transactions go out one at a time so that their nonces never collide.
    let settling: Promise<unknown> = Promise.resolve();
    const settleInTurn = <T>(work: () => Promise<T>): Promise<T> => {
      const turn = settling.then(work, work);
      settling = turn.catch(() => undefined);
      return turn;
    };

    // An idle chain mines nothing: before a payment is simulated, its clock is brought to wall time (once at a time).
    let catchingUp: Promise<unknown> | undefined;
    const clockFollowsWallTime = () => {
      catchingUp ??= followWallClock(chain.rpcUrl, { maxLagSeconds: MAX_CLOCK_LAG_SECONDS })
        .catch((err: unknown) => p.logger?.warn({ err: (err as Error).message }, 'embedded Base clock not moved'))
        .finally(() => {
          catchingUp = undefined;
        });
      return catchingUp;
    };

    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      (async () => {
        if (req.method === 'GET' && path === '/supported')
          return send(res, 200, (await facilitators()).v2.getSupported());
        if (req.method !== 'POST' || (path !== '/verify' && path !== '/settle'))
          return send(res, 404, { error: 'not found' });
        const body = await readJson(req);
        const payload = body.paymentPayload as PaymentPayload | undefined;
        const requirements = body.paymentRequirements as PaymentRequirements | undefined;
        if (!payload || typeof payload !== 'object' || !requirements || typeof requirements !== 'object') {
          throw new BadFacilitatorRequest('paymentPayload and paymentRequirements are required');
        }
        const [{ v2, verifyV1, settleV1 }] = await Promise.all([facilitators(), clockFollowsWallTime()]);
        if (payload.x402Version === 1) {
          const v1Payload = payload as unknown as PaymentPayloadV1;
          const v1Requirements = requirements as unknown as PaymentRequirementsV1;
          if (path === '/verify') return send(res, 200, await verifyV1(v1Payload, v1Requirements));
          return send(res, 200, await settleInTurn(() => settleV1(v1Payload, v1Requirements)));
        }
        if (path === '/verify') return send(res, 200, await v2.verify(payload, requirements));
        return send(res, 200, await settleInTurn(() => v2.settle(payload, requirements)));
      })().catch((err: unknown) => {
        if (err instanceof BadFacilitatorRequest) return send(res, 400, { error: err.message });
        // The x402 facilitator reports refusals it meets mid-way as errors carrying a reason: still an answer.
        const reason =
          (err as { invalidReason?: string; errorReason?: string }).invalidReason ??
          (err as { errorReason?: string }).errorReason;
        if (reason && path === '/verify') return send(res, 200, { isValid: false, invalidReason: reason });
        if (reason) return send(res, 200, { success: false, errorReason: reason, transaction: '', network: 'base' });
        p.logger?.warn({ err: (err as Error).message }, 'local x402 facilitator failed');
        return send(res, 500, { error: 'facilitator error' });
      });
    });
    // Idle connections are closed by the client (the server's x402 client), never here: see the replay server.
    server.keepAliveTimeout = 0;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      chain,
      deployments,
      async close() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await chain.stop();
      },
    };
  } catch (err) {
    await chain.stop();
    throw err;
  }
}
