/** One cheap request to one configured upstream, sent by the same client (URL, key placement) as production. */
export interface SourceProbe {
  /** The source's name in /api/sources/health. */
  source: string;
  /** The contract its reply is checked against (see VENDOR_CONTRACTS). */
  vendor: string;
  /** The base URL as configured; the contract's paths start after it (and the vendor's fixed prefix). */
  baseUrl: string;
  /** The key the request must carry where the contract says; undefined when none is configured. */
  credential: string | undefined;
  /** Where the vendor takes a key: as its contract says (checked), inside the configured URL, or not at all. */
  key: 'checked' | 'in-url' | 'none';
  /** For JSON-RPC: the chain id the node must answer. */
  expectedChainId?: number;
  /** Sends the request through `fetch`; may throw (the check reads what was exchanged, not the result). */
  send(fetch: typeof globalThis.fetch): Promise<unknown>;
}
