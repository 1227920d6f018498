/** The JSON-RPC calls the clock needs, over fetch: anvil is on loopback and answers at once. */
async function call(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reply = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/**
 * Mines one empty block stamped with this process's wall time when the chain's latest block is more than
 * `maxLagSeconds` older; anvil's later blocks then follow on from it. Contracts read `block.timestamp` from the latest
 * block, and a chain loaded from a snapshot (`--load-state`) keeps the snapshot's time until something is mined: an
 * EIP-3009 authorization that x402's client dates `validAfter = now − 600 s` would fail the facilitator's simulation.
 * Resolves to whether a block was mined.
 * @example await followWallClock(chain.rpcUrl) // latest block time ≈ now
 */
export async function followWallClock(
  rpcUrl: string,
  p: { maxLagSeconds?: number; now?: () => number } = {},
): Promise<boolean> {
  const nowSeconds = Math.floor((p.now ?? Date.now)() / 1000);
  const latest = (await call(rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
  if (Number(latest.timestamp) >= nowSeconds - (p.maxLagSeconds ?? 0)) return false;
  await call(rpcUrl, 'evm_setNextBlockTimestamp', [nowSeconds]);
  await call(rpcUrl, 'evm_mine');
  return true;
}
