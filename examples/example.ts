/**
 * What every TypeScript example gets: the API's base URL and where to print. `npm run example -- <name>` passes
 * API_URL (default http://127.0.0.1:3000) and console.log; the tests pass a test server and collect the lines.
 */
export interface Example {
  api: string;
  print(line: string): void;
}

/** The JSON body of an answer, or an error that shows the status and body when it is not a 2xx. */
export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * The embedded Ethereum chain's JSON-RPC URL, as GET /api/sources/health gives it (only for a local chain; against a
 * deployment, use your own node's URL).
 */
export async function embeddedRpcUrl(api: string): Promise<string> {
  const health = await json<{ sources: { name: string; rpcUrl?: string | null }[] }>(
    await fetch(`${api}/api/sources/health`),
  );
  const rpcUrl = health.sources.find((source) => source.name === 'rpc:ethereum')?.rpcUrl;
  if (!rpcUrl) throw new Error(`${api} runs no embedded Ethereum chain: use your own node's JSON-RPC URL`);
  return rpcUrl;
}
