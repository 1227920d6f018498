/** What a SIWE challenge asks wallets to sign for: the domain and the URI of the relying party. */
export interface SiweAudience {
  domain: string;
  uri: string;
}

/**
 * The domain and URI every challenge names, from configuration only: never from a request, whose Host a phishing
 * site controls. Domain: SIWE_DOMAIN, else the host of PUBLIC_BASE_URL, else of SIWE_URI, else of the address the
 * server listens on. URI: SIWE_URI, else PUBLIC_BASE_URL, else `https://` + SIWE_DOMAIN, else the listen address.
 * @example siweAudience({ siweDomain: undefined, siweUri: undefined, publicBaseUrl: undefined, listenUrl: 'http://127.0.0.1:3000' })
 * // { domain: '127.0.0.1:3000', uri: 'http://127.0.0.1:3000' }
 */
export function siweAudience(p: {
  siweDomain: string | undefined;
  siweUri: string | undefined;
  publicBaseUrl: string | undefined;
  /** The URL the server prints when it starts listening (`http://127.0.0.1:<port>` for HOST 0.0.0.0). */
  listenUrl: string;
}): SiweAudience {
  const domain = p.siweDomain ?? new URL(p.publicBaseUrl ?? p.siweUri ?? p.listenUrl).host;
  const uri = p.siweUri ?? p.publicBaseUrl ?? (p.siweDomain === undefined ? p.listenUrl : `https://${p.siweDomain}`);
  return { domain, uri };
}
