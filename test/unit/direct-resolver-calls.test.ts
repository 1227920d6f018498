import 'reflect-metadata';
import { type GraphQLFieldResolver, type GraphQLResolveInfo, isObjectType, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { directResolverCalls } from '../../src/gateway/direct-resolver-calls.js';
import { prepareOperation, startInProcessGateway } from '../../src/gateway/in-process-gateway.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

let subgraphs: BuiltSubgraph[];
let direct: Map<string, Map<string, Resolver>>;

beforeAll(async () => {
  subgraphs = await buildAllSubgraphs();
  direct = directResolverCalls(subgraphs);
});

/** The resolver type-graphql made for `Type.field` in the subgraph's own schema. */
function typeGraphqlResolver(subgraph: string, at: string): Resolver {
  const [typeName, fieldName] = at.split('.') as [string, string];
  const type = subgraphs.find((s) => s.name === subgraph)!.schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${subgraph} has no object type ${typeName}`);
  return type.getFields()[fieldName]!.resolve as Resolver;
}

/** What a resolver answers, or the error it fails with, however it fails (thrown, or a rejected promise). */
async function outcome(run: () => unknown): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
}

describe('direct calls of type-graphql resolver methods (the in-process gateway)', () => {
  it('cover the fields of the cross-subgraph mix: queries and field resolvers taking arguments, context, root', () => {
    const covered = (subgraph: string) => [...(direct.get(subgraph)?.keys() ?? [])];
    expect(covered('ens')).toEqual(
      expect.arrayContaining(['Query.ensProfile', 'Query.ensProfiles', 'EnsProfile.wallet', 'Wallet.primaryName']),
    );
    expect(covered('wallet')).toEqual(expect.arrayContaining(['Wallet.balance']));
    expect(covered('farcaster')).toEqual(
      expect.arrayContaining(['Query.farcasterUser', 'FarcasterUser.verifiedWallets', 'Wallet.farcasterUser']),
    );
    expect(covered('prices')).toEqual(expect.arrayContaining(['Query.tokenPrices']));
  });

  it('leave to type-graphql what it converts: @Args() classes, input classes, subscriptions, mutations', () => {
    expect(direct.get('farcaster')?.has('Query.farcasterCasts')).toBe(false); // @Args() UserListArgs
    expect(direct.get('wallet')?.has('Query.walletTransactions')).toBe(false); // @Args() WalletTransactionPageArgs
    expect(direct.get('ccip')?.has('Mutation.registerSubname')).toBe(false); // @Arg of SubnameRecordsInput
    for (const calls of direct.values()) {
      for (const at of calls.keys()) expect(at).not.toMatch(/^(Mutation|Subscription)\./);
    }
  });

  it('answer and fail as type-graphql’s resolvers do, for scalar and list arguments', async () => {
    const info = {} as GraphQLResolveInfo;
    const cases: [string, Record<string, unknown>][] = [
      ['Query.addressChecksum', { address: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045' }],
      ['Query.addressChecksum', { address: 'not an address' }],
      ['Query.addressValidation', { addresses: ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045', '0x12', 'vitalik'] }],
      ['Query.addressValidation', { addresses: [] }],
    ];
    for (const [at, args] of cases) {
      const call = direct.get('chain')?.get(at);
      expect(call, at).toBeDefined();
      const own = typeGraphqlResolver('chain', at);
      const expected = await outcome(() => own(undefined, args, {}, info));
      const got = await outcome(() => call!(undefined, args, {}, info));
      expect(got, `${at}(${JSON.stringify(args)})`).toEqual(expected);
      if (expected.error) expect(got.error).toBeInstanceOf((expected.error as object).constructor);
    }
  });

  it('give the method a copy of a list argument, as type-graphql does', async () => {
    const addresses = ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045'];
    const seen: unknown[] = [];
    const call = direct.get('chain')!.get('Query.addressValidation')!;
    // The resolver class's method is what the direct call runs: observe the argument it gets.
    const proto = subgraphs
      .find((s) => s.name === 'chain')!
      .resolverClasses.find(
        (c) =>
          typeof (c as { prototype?: { addressValidation?: unknown } }).prototype?.addressValidation === 'function',
      ) as { prototype: { addressValidation: (a: string[]) => unknown } };
    const method = proto.prototype.addressValidation;
    proto.prototype.addressValidation = function (this: unknown, a: string[]) {
      seen.push(a);
      return method.call(this, a);
    };
    try {
      await call(undefined, { addresses }, {}, {} as GraphQLResolveInfo);
    } finally {
      proto.prototype.addressValidation = method;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(addresses);
    expect(seen[0]).not.toBe(addresses);
  });

  it('keep the order fields fail in: a method taking arguments runs when type-graphql’s handler would run it', async () => {
    // The same API schema executed twice: with the direct calls, and with type-graphql's own resolvers only.
    const withDirect = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    const typeGraphqlOnly = await startInProcessGateway({
      subgraphs: subgraphs.map((s) => ({ name: s.name, schema: s.schema, sdl: '', resolverClasses: [] })),
      ...readPublishedSchema(),
    });
    // `me` fails a turn after it is called (its caller is refused); addressChecksum throws as it is called.
    const context = {
      app: { account: { me: () => ({ address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }) } },
      caller: async () => {
        throw new ApiError('UNAUTHORIZED', 'no caller here');
      },
    } as unknown as GraphContext;
    for (const source of [
      '{ me { address } addressChecksum(address: "zz") { address } }',
      '{ addressChecksum(address: "zz") { address } me { address } }',
      '{ a: addressValidation(addresses: ["zz"]) { count } me { address } b: addressChecksum(address: "0x12") { address } }',
      '{ addressChecksum(address: "0xd8da6bf26964af9d7eed9e03e53415d37aa96045") { address isChecksummed } }',
    ]) {
      const op = prepareOperation(source, parse(source));
      const expected = JSON.stringify(await typeGraphqlOnly.execute(op, {}, context));
      expect(JSON.stringify(await withDirect.execute(op, {}, context)), source).toBe(expected);
    }
  });
});
