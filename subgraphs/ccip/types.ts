import { Extensions, Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'GET /ccip/{sender}/{data}.json: a signed answer for an ENS OffchainResolver (ERC-3668)' })
export class CcipAnswer {
  @Field(() => String, {
    description: 'abi.encode(bytes result, uint64 expires, bytes sig): pass it to the resolver callback',
  })
  data!: string;
  @Field(() => String, {
    description:
      '65-byte signature over keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result))',
  })
  signature!: string;
  @Field(() => Int, { description: 'Unix seconds after which the resolver refuses the answer' }) validUntil!: number;
}

@ObjectType({ description: 'GET /ccip/health: the gateway, its record store and signer' })
export class CcipHealth {
  @Field(() => String) status!: string;
  @Field(() => Int, { description: 'subnames stored, under every parent' }) recordCount!: number;
  @Field(() => String, {
    description: 'the kind of store holding the records (sqlite or redis), never a file path or a host',
  })
  dbPath!: string;
  @Field(() => String, { description: 'ISO 8601' }) timestamp!: string;
  @Field(() => String, { description: 'address signing the answers: an OffchainResolver must list it' })
  signer!: string;
  @Field(() => [String], { description: 'parent names whose subnames are served' }) parents!: string[];
  @Field(() => Int, { description: 'seconds a signed answer stays valid' }) answerTtlSeconds!: number;
}

@ObjectType({ description: 'An address record of a subname by coin type' })
export class SubnameAddress {
  @Field(() => String, { description: 'decimal coin type: 60 is ETH, 0x80000000 | chainId an EVM chain (ENSIP-11)' })
  coinType!: string;
  @Field(() => String) address!: string;
}

@ObjectType({ description: 'A text record of a subname' })
export class SubnameText {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

@ObjectType({ description: 'The records the CCIP gateway answers for a subname' })
export class SubnameRecordSet {
  @Field(() => [SubnameAddress]) addresses!: SubnameAddress[];
  @Field(() => [SubnameText]) texts!: SubnameText[];
  @Field(() => String, { nullable: true, description: 'ENSIP-7 URI, e.g. ipfs://bafy…' }) contenthash!: string | null;
}

@ObjectType({ description: 'GET /api/subnames/{parent_name}/{label}: a subname served by the CCIP gateway' })
export class Subname {
  @Field(() => String, { description: 'label.parent' })
  @Extensions({ jsonSchema: { example: 'dave.offchain.eth' } })
  name!: string;
  @Field(() => String) parent!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'namehash of the name' }) node!: string;
  @Field(() => String, { description: 'the wallet that registered it' }) owner!: string;
  @Field(() => SubnameRecordSet)
  @Extensions({
    jsonSchema: {
      example: {
        addresses: [{ coinType: '60', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }],
        texts: [
          { key: 'url', value: 'https://dave.example.org' },
          { key: 'com.github', value: 'dave' },
        ],
        contenthash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      },
    },
  })
  records!: SubnameRecordSet;
  @Field(() => String, { description: 'ISO 8601' })
  @Extensions({ jsonSchema: { format: 'date-time' } })
  createdAt!: string;
}

@InputType({ description: 'An address record by coin type' })
export class SubnameAddressInput {
  @Field(() => String, { description: 'decimal coin type: 60 (ETH) or 0x80000000 | chainId (ENSIP-11)' })
  coinType!: string;
  @Field(() => String, { description: '0x address' }) address!: string;
}

@InputType({ description: 'A text record' })
export class SubnameTextInput {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

@InputType({ description: 'Records of a new subname; without addresses it resolves to its owner' })
export class SubnameRecordsInput {
  @Field(() => [SubnameAddressInput], { nullable: true }) addresses?: SubnameAddressInput[] | null;
  @Field(() => [SubnameTextInput], { nullable: true }) texts?: SubnameTextInput[] | null;
  @Field(() => String, { nullable: true, description: 'ipfs:// or ipns:// URI with a base32 CIDv1' }) contenthash?:
    | string
    | null;
}
