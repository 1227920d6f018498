import { describe, expect, it } from 'vitest';
import { avatarLink } from '../../src/sources/ens/avatar-uri.js';
import { decodeContentHash, encodeContentHash } from '../../src/sources/ens/content-hash.js';

const CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';

describe('ENSIP-12 avatar records become links the service never fetches', () => {
  it('https stays https; http is upgraded; credentials in a URL are refused', () => {
    expect(avatarLink('https://example.org/a.png', 'a.eth')).toEqual({
      url: 'https://example.org/a.png',
      type: 'https',
    });
    expect(avatarLink('http://example.org/a.png', 'a.eth')).toEqual({
      url: 'https://example.org/a.png',
      type: 'https',
    });
    expect(avatarLink('https://user:pw@example.org/a.png', 'a.eth')).toBeNull();
  });

  it('ipfs://, ipns://, ar:// and a bare CID go through fixed public gateways', () => {
    expect(avatarLink(`ipfs://${CID}/a.png`, 'a.eth')).toEqual({
      url: `https://ipfs.io/ipfs/${CID}/a.png`,
      type: 'ipfs',
    });
    expect(avatarLink(`ipfs://ipfs/${CID}`, 'a.eth')).toEqual({ url: `https://ipfs.io/ipfs/${CID}`, type: 'ipfs' });
    expect(avatarLink(CID, 'a.eth')).toEqual({ url: `https://ipfs.io/ipfs/${CID}`, type: 'ipfs' });
    expect(avatarLink('ipns://app.ens.eth', 'a.eth')).toEqual({
      url: 'https://ipfs.io/ipns/app.ens.eth',
      type: 'ipns',
    });
    const tx = 'Yz7GxNDsI3kuKJmbPcQgvVW7u_eOMfaPDa81aTRRTZw';
    expect(avatarLink(`ar://${tx}`, 'a.eth')).toEqual({ url: `https://arweave.net/${tx}`, type: 'arweave' });
    expect(avatarLink('ipfs://not a cid', 'a.eth')).toBeNull();
  });

  it('an NFT avatar (eip155) is shown through ENS’s metadata service for the name, never the token’s own host', () => {
    expect(avatarLink('eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/1000', 'alice.eth')).toEqual({
      url: 'https://metadata.ens.domains/mainnet/avatar/alice.eth',
      type: 'nft',
    });
    expect(avatarLink('eip155:1/erc1155:0xnot-an-address/1', 'alice.eth')).toBeNull();
  });

  it('data: images are kept as they are; other data: and unknown schemes are refused', () => {
    expect(avatarLink('data:image/png;base64,iVBORw0KGgo=', 'a.eth')).toEqual({
      url: 'data:image/png;base64,iVBORw0KGgo=',
      type: 'data',
    });
    expect(avatarLink('data:text/html,<script>alert(1)</script>', 'a.eth')).toBeNull();
    expect(avatarLink('javascript:alert(1)', 'a.eth')).toBeNull();
    expect(avatarLink('file:///etc/passwd', 'a.eth')).toBeNull();
  });
});

describe('ENSIP-7 content hashes', () => {
  it('round-trips an ipfs:// CIDv1 through the bytes a resolver stores', () => {
    const bytes = encodeContentHash(`ipfs://${CID}`);
    expect(bytes.startsWith('0xe30101701220')).toBe(true);
    expect(decodeContentHash(bytes)).toBe(`ipfs://${CID}`);
  });

  it('shows a CIDv0 record as its CIDv1, and null for an empty record', () => {
    const v1 = encodeContentHash(`ipfs://${CID}`);
    const v0 = `0xe301${v1.slice('0xe3010170'.length)}` as const;
    expect(decodeContentHash(v0)).toBe(`ipfs://${CID}`);
    expect(decodeContentHash('0x')).toBeNull();
  });
});
