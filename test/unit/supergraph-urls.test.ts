import { describe, expect, it } from 'vitest';
import { parseSubgraphUrls, SubgraphUrlsError } from '../../src/gateway/compose-supergraph.js';

const names = ['ens', 'wallet'];

describe('npm run supergraph -- --urls name=url,…', () => {
  it('gives every subgraph the URL named for it', () => {
    const urls = parseSubgraphUrls(' ens=http://127.0.0.1:4001/graphql , wallet=https://w.example/graphql', names);
    expect([...urls]).toEqual([
      ['ens', 'http://127.0.0.1:4001/graphql'],
      ['wallet', 'https://w.example/graphql'],
    ]);
  });

  it.each([
    ['a subgraph without a URL', 'ens=http://a/graphql', /no URL for wallet/],
    ['an unknown subgraph', 'ens=http://a,wallet=http://b,defi=http://c', /"defi=http:\/\/c"/],
    ['a pair without "="', 'ens,wallet=http://b', /expected <subgraph>=<url>/],
    ['a subgraph given twice', 'ens=http://a,ens=http://b,wallet=http://c', /ens is given twice/],
    ['something that is not a URL', 'ens=not a url,wallet=http://b', /is not a URL/],
    ['a URL that is not http(s)', 'ens=local://ens,wallet=http://b', /not an http\(s\) URL/],
  ])('refuses %s', (_case, raw, message) => {
    expect(() => parseSubgraphUrls(raw, names)).toThrow(SubgraphUrlsError);
    expect(() => parseSubgraphUrls(raw, names)).toThrow(message);
  });
});
