import { describe, expect, it } from 'vitest';
import { avatarLink } from '../../src/sources/ens/avatar-uri.js';
import { decodeContentHash, encodeContentHash } from '../../src/sources/ens/content-hash.js';
import { nftAvatarLink, parseNftAvatar } from '../../src/sources/ens/nft-avatar.js';

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

  it('round-trips swarm, arweave, onion and onion3 as ENS clients write them (bzz://, ar://, onion://, onion3://)', () => {
    const uris = {
      bzz: 'bzz://d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162',
      ar: 'ar://ys7Y6FeI6_bDyKN6Gsx2x-HZ5ZtF3sqHSmy3E8rSe0c',
      onion: 'onion://3g2upl4pq6kufc4m',
      onion3: 'onion3://p53lf57qovyuvwsc6xnrppyply3vtqm7l6pcobkmyqsiofyeznfu5uqd',
    };
    for (const uri of Object.values(uris)) expect(decodeContentHash(encodeContentHash(uri))).toBe(uri);
    // The byte layouts of ENSIP-7's codecs: swarm-manifest CID, arweave-ns (0xb29910 as a varint), onion3's ASCII.
    expect(encodeContentHash(uris.bzz).startsWith('0xe40101fa011b20')).toBe(true);
    expect(encodeContentHash(uris.ar).startsWith('0x90b2ca05')).toBe(true);
    expect(encodeContentHash(uris.onion3).startsWith('0xbd03')).toBe(true);
    expect(() => encodeContentHash('onion3://short')).toThrow(/is not a content URI/);
  });
});

describe('ENSIP-12 NFT avatars: the owner check, then the image of inline metadata', () => {
  const ref = parseNftAvatar('eip155:1/erc721:0x5FbDB2315678afecb367f032d93F642f64180aa3/1')!;
  const inline = (metadata: object) =>
    `data:application/json;base64,${Buffer.from(JSON.stringify(metadata)).toString('base64')}`;

  it('reads the record apart: chain, standard, contract, token id', () => {
    expect(ref).toEqual({
      chainId: 1,
      standard: 'erc721',
      contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      tokenId: 1n,
    });
    expect(parseNftAvatar('https://example.org/a.png')).toBeNull();
  });

  it('a held token with inline metadata shows its image through the IPFS gateway; a token not held shows none', () => {
    const tokenUri = inline({ image: `ipfs://${CID}/1.png` });
    expect(nftAvatarLink(ref, { owned: true, tokenUri }, 'nft.eth')).toEqual({
      url: `https://ipfs.io/ipfs/${CID}/1.png`,
      type: 'nft',
    });
    expect(nftAvatarLink(ref, { owned: false, tokenUri }, 'nft.eth')).toBeNull();
  });

  it('metadata off chain is left to ENS’s metadata service (the service fetches no host a token names); SVG image_data becomes a data: URI', () => {
    expect(nftAvatarLink(ref, { owned: true, tokenUri: 'https://tokens.example/1.json' }, 'nft.eth')).toEqual({
      url: 'https://metadata.ens.domains/mainnet/avatar/nft.eth',
      type: 'nft',
    });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(nftAvatarLink(ref, { owned: true, tokenUri: inline({ image_data: svg }) }, 'nft.eth')?.url).toBe(
      `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    );
  });
});
