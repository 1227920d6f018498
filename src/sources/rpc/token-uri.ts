/** What a token URI says about its metadata: decoded when it is inline (`data:`), a URL otherwise. */
export type TokenUriContent =
  | { kind: 'inline'; metadata: Record<string, unknown> | null; error: string | null }
  | { kind: 'url'; url: string }
  | { kind: 'none' };

const DATA_URI = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/s;
/** Schemes a token URI may point to; anything else (javascript:, file: …) is not handed to callers as a link. */
const URL_SCHEMES = /^(https?|ipfs|ipns|ar):\/\//i;

function parseJsonObject(text: string): { metadata: Record<string, unknown> | null; error: string | null } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { metadata: value as Record<string, unknown>, error: null };
    return { metadata: null, error: 'metadata is not a JSON object' };
  } catch {
    return { metadata: null, error: 'metadata is not valid JSON' };
  }
}

/**
 * Reads a token URI without fetching anything: `data:application/json` (base64, percent-encoded or plain) is decoded;
 * an http(s), ipfs, ipns or ar URL is returned as it is; the service never requests a host a token names.
 * @example decodeTokenUri('data:application/json;base64,eyJuYW1lIjoiQSJ9') // { kind: 'inline', metadata: { name: 'A' }, error: null }
 */
export function decodeTokenUri(uri: string): TokenUriContent {
  const trimmed = uri.trim();
  if (trimmed === '') return { kind: 'none' };
  const data = DATA_URI.exec(trimmed);
  if (data) {
    const mediaType = data[1]!.toLowerCase();
    const isBase64 = data[2]!.toLowerCase().split(';').includes('base64');
    if (mediaType !== 'application/json' && mediaType !== 'text/plain' && mediaType !== '') {
      return { kind: 'inline', metadata: null, error: `unsupported metadata media type ${mediaType.slice(0, 40)}` };
    }
    let text: string;
    try {
      text = isBase64 ? Buffer.from(data[3]!, 'base64').toString('utf8') : decodeURIComponent(data[3]!);
    } catch {
      return { kind: 'inline', metadata: null, error: 'metadata is not valid percent-encoding' };
    }
    return { kind: 'inline', ...parseJsonObject(text) };
  }
  if (URL_SCHEMES.test(trimmed)) return { kind: 'url', url: trimmed };
  return { kind: 'none' };
}
