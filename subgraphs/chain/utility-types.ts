import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One attribute (trait) of an NFT' })
export class ChainNftAttribute {
  @Field(() => String, { nullable: true }) traitType!: string | null;
  @Field(() => String, { description: 'the value as text (numbers and booleans written out)' }) value!: string;
  @Field(() => String, { nullable: true }) displayType!: string | null;
}

@ObjectType({ description: 'NFT metadata decoded from an on-chain data: URI' })
export class ChainNftMetadata {
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'as the metadata gives it (URL or data: URI); never fetched' })
  image!: string | null;
  @Field(() => String, { nullable: true }) externalUrl!: string | null;
  @Field(() => [ChainNftAttribute]) attributes!: ChainNftAttribute[];
}

@ObjectType({ description: 'GET /api/nft/{contract}/{tokenId}: an ERC-721 token read on chain' })
export class ChainNftToken {
  @Field(() => String, { description: 'EIP-55' }) contract!: string;
  @Field(() => String, { description: 'decimal token id' }) tokenId!: string;
  @Field(() => String) chain!: string;
  @Field(() => String, { description: 'EIP-55' }) owner!: string;
  @Field(() => String, { nullable: true }) collectionName!: string | null;
  @Field(() => String, { nullable: true }) collectionSymbol!: string | null;
  @Field(() => String, { nullable: true, description: 'tokenURI as the contract returns it' }) tokenUri!: string | null;
  @Field(() => String, {
    description:
      'onchain: metadata decoded from a data: URI · url: tokenUri points elsewhere and is not fetched · none',
  })
  metadataSource!: string;
  @Field(() => ChainNftMetadata, { nullable: true }) metadata!: ChainNftMetadata | null;
  @Field(() => String, { nullable: true, description: 'why inline metadata could not be decoded' }) metadataError!:
    | string
    | null;
}

@ObjectType({ description: 'GET /api/token/{address}: an ERC-20 read on chain' })
export class ChainTokenInfo {
  @Field(() => String, { description: 'EIP-55' }) address!: string;
  @Field(() => String) chain!: string;
  @Field(() => String, { nullable: true, description: 'null when the contract has no string name()' }) name!:
    | string
    | null;
  @Field(() => String) symbol!: string;
  @Field(() => Int) decimals!: number;
  @Field(() => String, { description: 'whole tokens (exact decimal string)' }) totalSupply!: string;
  @Field(() => String, { description: 'smallest units (integer string)' }) totalSupplyRaw!: string;
}

@ObjectType({ description: 'GET /api/abi/{address}: a contract ABI from the explorer, or from Sourcify' })
export class ChainContractAbi {
  @Field(() => String, { description: 'EIP-55' }) address!: string;
  @Field(() => String) chain!: string;
  @Field(() => GraphQLJSON, { description: 'ABI entries as published (JSON array)' }) abi!: unknown[];
  @Field(() => Boolean, {
    description: 'true for an explorer verification or a Sourcify exact match; false for a Sourcify (partial) match',
  })
  verified!: boolean;
  @Field(() => String) contractName!: string;
  @Field(() => String, { description: 'etherscan or sourcify' }) source!: string;
  @Field(() => Boolean, { description: 'the explorer marks the contract as a proxy' }) proxy!: boolean;
  @Field(() => String, { nullable: true, description: 'where the proxy points, per the explorer' }) implementation!:
    | string
    | null;
}

@ObjectType({
  description: 'GET /api/address/age/{address}: when the address first sent or received a normal transaction',
})
export class ChainAddressAge {
  @Field(() => String) address!: string;
  @Field(() => String) chain!: string;
  @Field(() => String, { description: 'ISO 8601' }) firstTransactionAt!: string;
  @Field(() => String) firstTransactionHash!: string;
  @Field(() => Int) firstBlock!: number;
  @Field(() => Int, { description: 'whole days since then' }) ageDays!: number;
  @Field(() => Float, { description: 'seconds since then' }) ageSeconds!: number;
}

@ObjectType({ description: 'The kind of one address' })
export class ChainAddressType {
  @Field(() => String, { description: 'EIP-55' }) address!: string;
  @Field(() => String, { description: 'eoa, contract, or delegated (an EOA with an EIP-7702 delegation)' })
  type!: string;
  @Field(() => Boolean) isContract!: boolean;
  @Field(() => Int, { description: 'bytes of code' }) codeSize!: number;
  @Field(() => String, { nullable: true, description: 'EIP-7702: the contract a delegated EOA runs' }) delegatedTo!:
    | string
    | null;
}

@ObjectType({ description: 'GET /api/address/batch/type' })
export class ChainAddressTypes {
  @Field(() => String) chain!: string;
  @Field(() => [ChainAddressType], { description: 'in the order asked (duplicates once)' })
  results!: ChainAddressType[];
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'Syntax and EIP-55 checksum of one address' })
export class ChainAddressValidity {
  @Field(() => String, { description: 'as sent (shortened past 64 characters)' }) input!: string;
  @Field(() => Boolean, { description: '0x + 40 hex digits, and a correct checksum when mixed case' }) valid!: boolean;
  @Field(() => Boolean, { description: 'mixed case: the input claims an EIP-55 checksum' }) hasChecksum!: boolean;
  @Field(() => String, { nullable: true, description: 'EIP-55 form when the syntax is right' }) checksummed!:
    | string
    | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
}

@ObjectType({ description: 'GET /api/address/batch/validate' })
export class ChainAddressValidation {
  @Field(() => [ChainAddressValidity], { description: 'in the order sent' }) results!: ChainAddressValidity[];
  @Field(() => Int) count!: number;
  @Field(() => Int) validCount!: number;
}

@ObjectType({ description: 'GET /api/address/checksum/{address}' })
export class ChainAddressChecksum {
  @Field(() => String) input!: string;
  @Field(() => String, { description: 'EIP-55 checksummed' }) address!: string;
  @Field(() => Boolean, { description: 'the input is already exactly the checksummed form' }) isChecksummed!: boolean;
  @Field(() => Boolean, { description: 'false when a mixed-case input carries a wrong checksum (likely a typo)' })
  inputChecksumValid!: boolean;
}

@ObjectType({ description: 'GET /api/address/code/{address}' })
export class ChainAddressCode {
  @Field(() => String) address!: string;
  @Field(() => String) chain!: string;
  @Field(() => String, { description: 'deployed bytecode, 0x for an account without code' }) code!: string;
  @Field(() => Int) codeSize!: number;
  @Field(() => Boolean) isContract!: boolean;
  @Field(() => String, { nullable: true, description: 'keccak256 of the code; null without code' }) codeHash!:
    | string
    | null;
}
