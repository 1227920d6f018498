import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { formatUnits, keccak256, size } from 'viem';
import { MAX_BATCH_ADDRESSES, validationEntry } from '../../src/arguments/address-batch.js';
import { argumentList } from '../../src/arguments/argument-list.js';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { chainName, chainOrDefault } from '../../src/arguments/chain.js';
import { checksummedAddress } from '../../src/arguments/evm-address.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { tokenId as tokenIdArgument } from '../../src/arguments/token-id.js';
import { isApiError } from '../../src/errors/api-error.js';
import { decodeTokenUri } from '../../src/sources/rpc/token-uri.js';
import type { GraphContext } from '../shared/graph-context.js';
import { validateAddress } from './address-checks.js';
import { AddressOnChainArgs, addressOnChain } from './address-on-chain.js';
import {
  ChainAddressAge,
  ChainAddressChecksum,
  ChainAddressCode,
  ChainAddressTypes,
  ChainAddressValidation,
  ChainContractAbi,
  ChainNftAttribute,
  ChainNftMetadata,
  ChainNftToken,
  ChainTokenInfo,
} from './utility-types.js';

const addressBatch = argumentList(checksummedAddress, { max: MAX_BATCH_ADDRESSES, noun: 'addresses' });
const validationBatch = argumentList(validationEntry, { max: MAX_BATCH_ADDRESSES, noun: 'addresses' });

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function toMetadata(raw: Record<string, unknown>): ChainNftMetadata {
  const attributes: ChainNftAttribute[] = Array.isArray(raw.attributes)
    ? raw.attributes.flatMap((a: unknown) => {
        if (typeof a !== 'object' || a === null) return [];
        const { trait_type, value, display_type } = a as Record<string, unknown>;
        if (!['string', 'number', 'boolean'].includes(typeof value)) return [];
        return [{ traitType: text(trait_type), value: String(value), displayType: text(display_type) }];
      })
    : [];
  return {
    name: text(raw.name),
    description: text(raw.description),
    image: text(raw.image) ?? text(raw.image_data),
    externalUrl: text(raw.external_url),
    attributes,
  };
}

@Resolver()
export class ChainUtilityResolver {
  @Query(() => ChainNftToken, {
    nullable: true,
    description: 'An ERC-721 token: owner, collection, tokenURI and its on-chain (data:) metadata',
  })
  async nftToken(
    @Arg('contract', () => String) contract: string,
    @Arg('tokenId', () => String, { description: 'decimal' }) tokenId: string,
    @Arg('chain', () => String, argumentOptions(chainOrDefault)) chain: string,
    @Ctx() ctx: GraphContext,
  ): Promise<ChainNftToken | null> {
    const address = parseArgument(checksummedAddress, 'contract', contract);
    const id = BigInt(parseArgument(tokenIdArgument, 'tokenId', tokenId));
    const key = parseArgument(chainName, 'chain', chain);
    const token = await ctx.sources.wallet.chainReads.nftToken(key, address, id);
    if (!token) return null;
    const content = token.tokenUri === null ? ({ kind: 'none' } as const) : decodeTokenUri(token.tokenUri);
    return {
      contract: token.contract,
      tokenId: id.toString(),
      chain: key,
      owner: token.owner,
      collectionName: token.collectionName,
      collectionSymbol: token.collectionSymbol,
      tokenUri: token.tokenUri,
      metadataSource: content.kind === 'inline' ? 'onchain' : content.kind,
      metadata: content.kind === 'inline' && content.metadata ? toMetadata(content.metadata) : null,
      metadataError: content.kind === 'inline' ? content.error : null,
    };
  }

  @Query(() => ChainTokenInfo, {
    nullable: true,
    description: 'An ERC-20: name, symbol, decimals, total supply, read in one multicall; null when not a token',
  })
  async tokenInfo(@Args() at: AddressOnChainArgs, @Ctx() ctx: GraphContext): Promise<ChainTokenInfo | null> {
    const { address: token, key } = addressOnChain(at);
    const info = await ctx.sources.wallet.chainReads.tokenContract(key, token);
    if (!info) return null;
    return {
      address: info.address,
      chain: key,
      name: info.name,
      symbol: info.symbol,
      decimals: info.decimals,
      totalSupply: formatUnits(info.totalSupply, info.decimals),
      totalSupplyRaw: info.totalSupply.toString(),
    };
  }

  @Query(() => ChainContractAbi, {
    nullable: true,
    description: "A contract ABI: the explorer's verified source, else Sourcify; null when neither has one",
  })
  async contractAbi(@Args() at: AddressOnChainArgs, @Ctx() ctx: GraphContext): Promise<ChainContractAbi | null> {
    const { address: contract, key } = addressOnChain(at);
    const { explorer, sourcify } = ctx.sources.wallet;
    // Sourcify answers when the explorer has no verified source, and also when the explorer is down.
    let explorerFailure: unknown;
    try {
      const verified = await explorer.contractSource(key, contract);
      if (verified) {
        const { abi, contractName, proxy, implementation } = verified;
        return {
          address: contract,
          chain: key,
          abi,
          verified: true,
          contractName,
          source: 'etherscan',
          proxy,
          implementation,
        };
      }
    } catch (err) {
      if (!isApiError(err) || err.status < 500) throw err;
      explorerFailure = err;
    }
    const fallback = await sourcify.contract(key, contract).catch((err: unknown) => {
      throw explorerFailure ?? err;
    });
    if (fallback) {
      const { abi, contractName, match } = fallback;
      return {
        address: contract,
        chain: key,
        abi,
        verified: match === 'exact_match',
        contractName,
        source: 'sourcify',
        proxy: false,
        implementation: null,
      };
    }
    // Not verified on Sourcify, but the explorer could not say: that is not a "no".
    if (explorerFailure) throw explorerFailure;
    return null;
  }

  @Query(() => ChainAddressAge, {
    nullable: true,
    description: 'First normal transaction of an address (explorer txlist, oldest first); null without any',
  })
  async addressAge(@Args() at: AddressOnChainArgs, @Ctx() ctx: GraphContext): Promise<ChainAddressAge | null> {
    const { address: account, key } = addressOnChain(at);
    const first = await ctx.sources.wallet.explorer.firstTransaction(key, account);
    if (!first) return null;
    const ageSeconds = Math.max(0, Math.floor((Date.now() - Date.parse(first.timestamp)) / 1000));
    return {
      address: account,
      chain: key,
      firstTransactionAt: first.timestamp,
      firstTransactionHash: first.hash,
      firstBlock: first.blockNumber,
      ageDays: Math.floor(ageSeconds / 86_400),
      ageSeconds,
    };
  }

  @Query(() => ChainAddressTypes, {
    description: `EOA or contract for up to ${MAX_BATCH_ADDRESSES} addresses in one eth_call`,
  })
  async addressTypes(
    @Arg('addresses', () => [String]) addresses: string[],
    @Arg('chain', () => String, argumentOptions(chainOrDefault)) chain: string,
    @Ctx() ctx: GraphContext,
  ): Promise<ChainAddressTypes> {
    const checked = [...new Set(parseArgument(addressBatch, 'addresses', addresses))];
    const key = parseArgument(chainName, 'chain', chain);
    const kinds = await ctx.sources.wallet.chainReads.addressKinds(key, checked);
    const results = kinds.map((k) => ({
      address: k.address,
      type: k.kind,
      isContract: k.kind === 'contract',
      codeSize: k.codeSize,
      delegatedTo: k.delegatedTo,
    }));
    return { chain: key, results, count: results.length };
  }

  @Query(() => ChainAddressValidation, {
    description: `Syntax and EIP-55 checksum of up to ${MAX_BATCH_ADDRESSES} addresses (no upstream)`,
  })
  addressValidation(@Arg('addresses', () => [String]) addresses: string[]): ChainAddressValidation {
    const results = parseArgument(validationBatch, 'addresses', addresses).map((a) => validateAddress(a));
    return { results, count: results.length, validCount: results.filter((r) => r.valid).length };
  }

  @Query(() => ChainAddressChecksum, { description: 'The EIP-55 checksummed form of an address' })
  addressChecksum(@Arg('address', () => String) address: string): ChainAddressChecksum {
    const checksummed = parseArgument(checksummedAddress, 'address', address);
    return {
      input: address,
      address: checksummed,
      isChecksummed: checksummed === address,
      inputChecksumValid: validateAddress(address).valid,
    };
  }

  @Query(() => ChainAddressCode, { description: 'The code deployed at an address (0x for an account without code)' })
  async addressCode(@Args() at: AddressOnChainArgs, @Ctx() ctx: GraphContext): Promise<ChainAddressCode> {
    const { address: account, key } = addressOnChain(at);
    const code = await ctx.sources.wallet.chainReads.code(key, account);
    const codeSize = size(code);
    return {
      address: account,
      chain: key,
      code,
      codeSize,
      isContract: codeSize > 0,
      codeHash: codeSize > 0 ? keccak256(code) : null,
    };
  }
}
