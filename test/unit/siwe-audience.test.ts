import { describe, expect, it } from 'vitest';
import { siweAudience } from '../../src/access/siwe-audience.js';

const LISTEN = 'http://127.0.0.1:3000';
const unset = { siweDomain: undefined, siweUri: undefined, publicBaseUrl: undefined, listenUrl: LISTEN };

describe('the domain and URI SIWE challenges name (docs/access.md#sign-in-with-ethereum)', () => {
  it('with nothing configured: the address the server listens on', () => {
    expect(siweAudience(unset)).toEqual({ domain: '127.0.0.1:3000', uri: LISTEN });
  });

  it('with PUBLIC_BASE_URL: its host and the URL itself', () => {
    expect(siweAudience({ ...unset, publicBaseUrl: 'https://api.example.com' })).toEqual({
      domain: 'api.example.com',
      uri: 'https://api.example.com',
    });
  });

  it('SIWE_DOMAIN and SIWE_URI win over PUBLIC_BASE_URL, each on its own', () => {
    const base = { ...unset, publicBaseUrl: 'https://api.example.com' };
    expect(siweAudience({ ...base, siweDomain: 'app.example.com' })).toEqual({
      domain: 'app.example.com',
      uri: 'https://api.example.com',
    });
    expect(siweAudience({ ...base, siweUri: 'https://app.example.com/login' })).toEqual({
      domain: 'api.example.com',
      uri: 'https://app.example.com/login',
    });
  });

  it('SIWE_DOMAIN alone gives an https URI on it; SIWE_URI alone gives its host as the domain', () => {
    expect(siweAudience({ ...unset, siweDomain: 'app.example.com' })).toEqual({
      domain: 'app.example.com',
      uri: 'https://app.example.com',
    });
    expect(siweAudience({ ...unset, siweUri: 'https://app.example.com:8443/login' })).toEqual({
      domain: 'app.example.com:8443',
      uri: 'https://app.example.com:8443/login',
    });
  });
});
