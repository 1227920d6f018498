import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';

export class CompositionError extends Error {
  override name = 'CompositionError';
}

export class SubgraphUrlsError extends Error {
  override name = 'SubgraphUrlsError';
}

/**
 * Composes the subgraphs into one supergraph SDL, as Apollo Router would from schema/. Each subgraph's URL is taken
 * from `urls` (by name); without one it is `local://<name>`, which only the in-process gateway runs.
 * @example const sdl = composeSupergraph(await buildAllSubgraphs(), new Map([['ens', 'http://127.0.0.1:4001/graphql']]))
 */
export function composeSupergraph(
  subgraphs: readonly BuiltSubgraph[],
  urls: ReadonlyMap<string, string> = new Map(),
): string {
  const result = composeServices(
    subgraphs.map((s) => ({ name: s.name, typeDefs: parse(s.sdl), url: urls.get(s.name) ?? `local://${s.name}` })),
  );
  if (result.errors) {
    throw new CompositionError(`supergraph composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  }
  return result.supergraphSdl;
}

/**
 * `ens=http://h:4001/graphql,wallet=…` → name → URL; every name in `names` must get an http(s) URL, and nothing else.
 * @example parseSubgraphUrls('ens=http://127.0.0.1:4001/graphql', ['ens'])
 */
export function parseSubgraphUrls(raw: string, names: readonly string[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const pair of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const url = pair.slice(at + 1).trim();
    if (at < 1 || !names.includes(name))
      throw new SubgraphUrlsError(`"${pair}": expected <subgraph>=<url>, subgraph one of ${names.join(', ')}`);
    if (urls.has(name)) throw new SubgraphUrlsError(`${name} is given twice`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new SubgraphUrlsError(`${name}: "${url}" is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new SubgraphUrlsError(`${name}: "${url}" is not an http(s) URL`);
    urls.set(name, url);
  }
  const missing = names.filter((n) => !urls.has(n));
  if (missing.length > 0) throw new SubgraphUrlsError(`no URL for ${missing.join(', ')}`);
  return urls;
}
