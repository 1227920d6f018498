/**
 * The JSON-RPC method names in a request body: one for a single request, one per entry for a batch, none for
 * anything that is not JSON-RPC.
 * @example readJsonRpcMethods('[{"jsonrpc":"2.0","id":1,"method":"eth_call"},{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]') // ['eth_call', 'eth_chainId']
 */
export function readJsonRpcMethods(body: unknown): string[] {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return [];
    }
  }
  const requests = Array.isArray(parsed) ? parsed : [parsed];
  return requests.flatMap((request: unknown) =>
    typeof request === 'object' && request !== null && typeof (request as { method?: unknown }).method === 'string'
      ? [(request as { method: string }).method]
      : [],
  );
}
