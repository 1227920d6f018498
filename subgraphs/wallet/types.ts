import { Directive, Field, Float, Int, ObjectType } from 'type-graphql';

@Directive('@key(fields: "address")')
@ObjectType({ description: 'An Ethereum account; this subgraph adds its native and token balances' })
export class Wallet {
  @Field(() => String, { description: 'EIP-55 checksummed address' }) address!: string;
}

@ObjectType({ description: 'An ERC-20 balance of a wallet' })
export class WalletToken {
  @Field(() => String, { description: 'ticker, upper case' }) symbol!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'token contract, EIP-55' }) address!: string;
  @Field(() => Int) decimals!: number;
  @Field(() => String, { description: 'amount in whole tokens (exact decimal string)' }) balance!: string;
  @Field(() => String, { description: 'amount in the smallest unit (integer string)' }) balanceRaw!: string;
  @Field(() => Float, { nullable: true, description: 'USD per token; null when no price is known' }) priceUsd!:
    | number
    | null;
  @Field(() => Float, { nullable: true, description: 'balance × price in USD, rounded to cents; null without a price' })
  balanceUsd!: number | null;
}

@ObjectType({
  description: 'GET /api/wallet/{address}/balance: the native coin and listed ERC-20 balances, read at one block',
})
export class WalletBalance {
  @Field(() => String, { description: 'EIP-55 checksummed address' }) address!: string;
  @Field(() => String) chain!: string;
  @Field(() => Int) chainId!: number;
  @Field(() => String, { description: 'native coin ticker (ETH, POL)' }) symbol!: string;
  @Field(() => String, { description: 'native balance in whole coins (exact decimal string)' }) balance!: string;
  @Field(() => String, { description: 'native balance in wei (integer string)' }) balanceWei!: string;
  @Field(() => Float, { nullable: true, description: 'USD per native coin; null when no price is known' }) priceUsd!:
    | number
    | null;
  @Field(() => Float, { nullable: true, description: 'native balance in USD, rounded to cents; null without a price' })
  balanceUsd!: number | null;
  @Field(() => [WalletToken], { description: 'listed tokens with a non-zero balance, in list order' })
  tokens!: WalletToken[];
  @Field(() => Float, {
    nullable: true,
    description: 'native plus tokens in USD; null when any held asset has no price',
  })
  totalUsd!: number | null;
  @Field(() => String, { description: 'block the balances were read at (decimal string)' }) blockNumber!: string;
}

@ObjectType({ description: 'Offset pagination: the page asked for, the total and whether more follow' })
export class WalletPagination {
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int, { description: 'items in the whole list (see the route for how it is known)' }) total!: number;
  @Field(() => Boolean) hasMore!: boolean;
}

@ObjectType({ description: 'A normal (external) transaction of a wallet, from the explorer' })
export class WalletTransaction {
  @Field(() => String) hash!: string;
  @Field(() => Int) blockNumber!: number;
  @Field(() => String, { description: 'ISO 8601' }) timestamp!: string;
  @Field(() => String) from!: string;
  @Field(() => String, { nullable: true, description: 'null for a contract creation' }) to!: string | null;
  @Field(() => String, { nullable: true, description: 'the contract a creation made' }) contractAddress!: string | null;
  @Field(() => String, { description: 'in: received · out: sent · self: both' }) direction!: string;
  @Field(() => String, { description: 'native amount in whole coins (exact decimal string)' }) value!: string;
  @Field(() => String, { description: 'native amount in wei' }) valueWei!: string;
  @Field(() => String, { description: 'gas used × gas price, whole coins' }) fee!: string;
  @Field(() => String, { description: 'success or failed' }) status!: string;
  @Field(() => String, {
    nullable: true,
    description: 'called function signature or 4-byte selector; null for a plain transfer',
  })
  method!: string | null;
  @Field(() => Int) nonce!: number;
}

@ObjectType({ description: 'GET /api/wallet/{address}/transactions: newest first' })
export class WalletTransactionPage {
  @Field(() => [WalletTransaction]) data!: WalletTransaction[];
  @Field(() => WalletPagination) pagination!: WalletPagination;
}

@ObjectType({ description: 'An NFT a wallet holds, from the NFT API' })
export class WalletNft {
  @Field(() => String, { description: 'collection contract, EIP-55' }) contract!: string;
  @Field(() => String, { description: 'decimal token id' }) tokenId!: string;
  @Field(() => String, { description: 'ERC721 or ERC1155' }) tokenType!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'image URL (not fetched by this service)' }) image!:
    | string
    | null;
  @Field(() => String, { nullable: true }) tokenUri!: string | null;
  @Field(() => String, { nullable: true }) collectionName!: string | null;
  @Field(() => String, { nullable: true }) collectionSymbol!: string | null;
  @Field(() => String, { description: 'how many the wallet holds (1 for ERC-721)' }) balance!: string;
}

@ObjectType({ description: 'GET /api/wallet/{address}/nfts' })
export class WalletNftPage {
  @Field(() => [WalletNft]) data!: WalletNft[];
  @Field(() => WalletPagination) pagination!: WalletPagination;
}
