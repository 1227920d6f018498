import { Directive, Extensions, Field, Int, ObjectType } from 'type-graphql';
import type { EnsProfileRecord } from '../../src/sources/ens/ens-chain-reader.js';

@ObjectType({ description: 'GET /api/ens/resolve/{name}: the address an ENS name resolves to' })
export class EnsResolution {
  @Field(() => String, { description: 'the name, ENSIP-15 normalised' }) name!: string;
  @Field(() => String, { description: 'EIP-55 checksummed address (coin type 60)' }) address!: string;
}

@ObjectType({
  description:
    'One text record of a profile, by the key the API shows it under (twitter, github, url, description, email, com.discord)',
})
export class EnsTextRecord {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

@ObjectType({
  description: 'The address a name holds for one coin (ENSIP-9, ENSIP-11), as that coin’s chain writes it',
})
export class EnsCoinAddress {
  @Field(() => String, {
    description: 'the coin’s name in ENS’s address-encoder (btc, sol, base …), or eip155:<chain id>',
  })
  @Extensions({ jsonSchema: { example: 'btc' } })
  coin!: string;
  @Field(() => String, {
    description: 'SLIP-44 coin type, or 0x80000000 | chainId for an EVM chain (ENSIP-11), in decimal',
  })
  @Extensions({ jsonSchema: { example: '0' } })
  coinType!: string;
  @Field(() => String, { description: 'the address: EIP-55 for EVM chains, bech32 or base58 as the coin writes it' })
  @Extensions({ jsonSchema: { example: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' } })
  address!: string;
}

@ObjectType({
  description:
    'GET /api/ens/records/{name}: every record a name has (text keys, coin addresses, content hash) with its value',
})
export class EnsNameRecords {
  @Field(() => String, { description: 'the name, ENSIP-15 normalised' }) name!: string;
  @Field(() => [EnsTextRecord], {
    description: 'every set text record by its ENS key (ENSIP-5), avatar included, in the order first set',
  })
  @Extensions({
    jsonSchema: {
      example: [
        { key: 'com.twitter', value: 'alice' },
        { key: 'org.example.custom', value: 'hello' },
      ],
    },
  })
  texts!: EnsTextRecord[];
  @Field(() => [EnsCoinAddress], {
    description: 'every set address (ENSIP-9/11), ETH (coin type 60) included, in the order first set',
  })
  addresses!: EnsCoinAddress[];
  @Field(() => String, { nullable: true, description: 'ENSIP-7 content hash as a URI; null when unset' })
  contentHash!: string | null;
}

@ObjectType({ description: 'A wallet address; the ENS subgraph adds its forward-checked primary name' })
@Directive('@key(fields: "address")')
export class Wallet {
  @Field(() => String, { description: 'EIP-55 checksummed address' }) address!: string;
}

@ObjectType({ description: 'GET /api/ens/{name}: an ENS profile' })
@Directive('@key(fields: "name")')
export class EnsProfile {
  @Field(() => String, { description: 'the name, ENSIP-15 normalised' }) name!: string;
  @Field(() => String, { nullable: true, description: 'EIP-55 address the name resolves to (coin type 60)' }) address!:
    | string
    | null;
  @Field(() => String, { nullable: true, description: 'https URL of the avatar (ENSIP-12), or the data: URI itself' })
  avatar!: string | null;
  @Field(() => String, { nullable: true, description: 'ENSIP-7 content hash as a URI, e.g. ipfs://bafy…' })
  contentHash!: string | null;
  @Field(() => [EnsTextRecord], {
    description: 'the set text records among twitter, github, url, description, email, com.discord',
  })
  @Extensions({
    jsonSchema: {
      example: Object.entries({
        twitter: 'alice',
        github: 'alice-codes',
        url: 'https://alice.example.org',
        'com.discord': 'alice.eth',
      }).map(([key, value]) => ({ key, value })),
    },
  })
  records!: EnsTextRecord[];
  @Field(() => String, {
    nullable: true,
    description: 'registration expiry (ISO 8601) of the .eth name or its .eth parent',
  })
  expiration!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'holder of the .eth registrar token (ERC-721, tokenId = labelhash)',
  })
  registrant!: string | null;
  @Field(() => String, { nullable: true, description: 'owner of the name in the ENS registry' }) controller!:
    | string
    | null;
  @Field(() => String, { nullable: true, description: 'resolver contract that answers for the name' }) resolver!:
    | string
    | null;
  /** The chain read the profile came from: what `text`, `texts` and `coinAddresses` answer from when it asked them. */
  read?: EnsProfileRecord;
}

@ObjectType({ description: 'GET /api/ens/avatar/{name}: the avatar as a link a client can load' })
export class EnsAvatar {
  @Field(() => String, {
    description: 'https URL (IPFS and Arweave through public gateways, NFTs through ENS metadata), or a data: URI',
  })
  avatar!: string;
  @Field(() => String, { description: 'what the record was: https, ipfs, ipns, arweave, data or nft' }) type!: string;
  @Field(() => String, { description: 'the avatar text record as set on the resolver' }) record!: string;
}

@ObjectType({ description: 'GET /api/ens/reverse/{address}: the primary name of an address, forward-checked' })
export class EnsPrimaryName {
  @Field(() => String)
  @Extensions({ jsonSchema: { example: 'alice.eth' } })
  name!: string;
  @Field(() => String, { description: 'EIP-55 checksummed address asked about' }) address!: string;
  @Field(() => String, {
    description:
      'chain whose reverse record set the name: ethereum (ENSIP-19 addr.reverse) or base (Basenames, 80002105.reverse); not in the REST answer',
  })
  chain!: string;
}

@ObjectType({ description: 'One name of a batch lookup and its address (null when it resolves to none)' })
export class EnsBatchEntry {
  @Field(() => String, { description: 'the name, ENSIP-15 normalised' }) name!: string;
  @Field(() => String, { nullable: true }) address!: string | null;
}

@ObjectType({ description: 'GET /api/ens/batch: addresses of many names in one call' })
export class EnsBatchResult {
  @Field(() => [EnsBatchEntry], { description: 'one entry per distinct name asked, in order' })
  results!: EnsBatchEntry[];
  @Field(() => Int, { description: 'how many results: one per distinct name asked' })
  count!: number;
  @Field(() => Int, { description: 'how many of the names resolved to an address' }) resolved!: number;
}

@ObjectType({ description: 'A name an address holds as registrant or controller' })
export class EnsDomain {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) registrant!: string | null;
  @Field(() => String, { nullable: true }) controller!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601; null for names without a registrar expiry' })
  expiration!: string | null;
}

@ObjectType({ description: 'Offset pagination: the page asked for, the total and whether more follow' })
export class EnsPageInfo {
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) total!: number;
  @Field(() => Boolean) hasMore!: boolean;
}

@ObjectType({ description: 'GET /api/ens/domains/{address}: names the address holds, a page at a time' })
export class EnsDomainsPage {
  @Field(() => [EnsDomain]) data!: EnsDomain[];
  @Field(() => EnsPageInfo) pagination!: EnsPageInfo;
}
