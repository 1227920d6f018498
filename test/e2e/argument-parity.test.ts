import 'reflect-metadata';
import { coerceInputValue, type GraphQLSchema, isInputType, Kind, type TypeNode, typeFromAST } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type CompiledOperationRow, compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { JsonSchema } from '../../rest-compat/openapi/openapi-types.js';
import { schemaExample } from '../../rest-compat/openapi/schema-example.js';
import { zodJsonSchema } from '../../rest-compat/openapi/zod-json-schema.js';
import type { OperationRow, RouteInput } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { startInProcessGateway } from '../../src/gateway/in-process-gateway.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

const PARTS = ['path', 'query', 'body'] as const;

type Part = (typeof PARTS)[number];

/** Wrong values of every kind the rules refuse: ranges, syntax, lengths, empty. */
const BAD_TEXT = [
  '0',
  '-1',
  '101',
  '1001',
  '100001',
  '1000001',
  '2147483648',
  '0xZZ',
  'not valid!',
  '',
  'x'.repeat(300),
];
const BAD_LISTS: unknown[] = [[], ['not valid!'], Array.from({ length: 101 }, () => 'x')];
/** Wrong numbers, for number leaves of a JSON body: signs, zero, fractions, ranges. */
const BAD_NUMBERS: unknown[] = [0, -1, 0.5, 101, 1001, 2147483648];

/** Webhook filters with every key the schema takes, a threshold above and one below. */
const WEBHOOK_FILTERS_SAMPLE = {
  names: ['*.base.eth'],
  addresses: ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045'],
  fids: [3],
  prices: [
    { symbol: 'ETH', above: 4000 },
    { symbol: 'BTC', below: 20000 },
  ],
};
/**
 * Valid values of parameters whose documented example leaves some leaves out, by row id and part: the webhook example
 * filters by ENS names only, and updateWebhook's example changes the status only. Each completes the documented example
 * (a test checks the REST schema accepts the result) and is probed leaf by leaf like it.
 */
const FULL_SAMPLES: Record<string, Partial<RouteInput>> = {
  createWebhook: { body: { filters: WEBHOOK_FILTERS_SAMPLE } },
  updateWebhook: { body: { events: ['ens.transfer'], filters: WEBHOOK_FILTERS_SAMPLE } },
};

/** A valid webhook URL, for the bodies below that break a rule over several fields. */
const HOOK_URL = 'https://hooks.example.org/ens';

/**
 * Values refused as a whole rather than at one leaf (a rule over several fields), by row id: the part's value sent, and
 * the parameter the refusal names (`body` when it names the part).
 */
const OBJECT_REFUSALS: Record<string, { part: Part; key: string; value: Record<string, unknown> }[]> = {
  createWebhook: [
    {
      part: 'body',
      key: 'filters',
      value: { url: HOOK_URL, events: ['wallet.transfer'], filters: { names: ['a.eth'] } },
    },
    {
      part: 'body',
      key: 'filters',
      value: { url: HOOK_URL, events: ['price.alert'], filters: { prices: [{ symbol: 'ETH', above: 1, below: 2 }] } },
    },
  ],
  updateWebhook: [
    { part: 'body', key: 'body', value: {} },
    { part: 'body', key: 'filters', value: { filters: { prices: [{ symbol: 'ETH' }] } } },
  ],
};

/** The row's documented examples, completed by its full samples: a valid input, into which one bad value is put at a time. */
function validInput(row: OperationRow): RouteInput {
  const input: RouteInput = { path: {}, query: {}, body: {} };
  for (const part of PARTS) {
    const schema = row.params?.[part];
    if (!schema) continue;
    const example = schemaExample(zodJsonSchema({ schema, componentName: (id) => id }).resolved);
    input[part] = { ...(example as Record<string, unknown> | undefined), ...FULL_SAMPLES[row.id]?.[part] };
  }
  return input;
}

/** The first issue of the row's schema for this part is at `path` or below: the REST route refuses this very value. */
function refusesAt(schema: z.ZodObject, value: Record<string, unknown>, path: readonly string[]): boolean {
  const parsed = schema.safeParse(value);
  const at = parsed.error?.issues[0]?.path.map(String);
  return at !== undefined && path.every((step, i) => at[i] === step);
}

const namedType = (type: TypeNode): { name: string; list: boolean } =>
  type.kind === Kind.NON_NULL_TYPE
    ? namedType(type.type)
    : type.kind === Kind.LIST_TYPE
      ? { name: namedType(type.type).name, list: true }
      : { name: type.name.value, list: false };

/**
 * The GraphQL variables the REST input stands for, typed as the operation declares them; undefined if not expressible
 * (a text where the input type says Int, a fraction in a list of Int, a key the input object does not declare).
 */
function graphqlVariables(
  schema: GraphQLSchema,
  compiled: CompiledOperationRow,
  input: RouteInput,
): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = { ...input.body, ...input.query, ...input.path };
  const raw = compiled.row.variables ? compiled.row.variables(input) : merged;
  const vars: Record<string, unknown> = {};
  for (const definition of compiled.prepared.operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const value = raw[name];
    if (value === undefined) continue;
    const type = namedType(definition.type);
    if (type.list) {
      vars[name] = Array.isArray(value)
        ? value
        : String(value)
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
    } else if (type.name === 'Int') {
      if (!/^-?\d{1,10}$/.test(String(value)) || Math.abs(Number(value)) > 2 ** 31 - 1) return undefined;
      vars[name] = Number(value);
    } else if (type.name === 'String') {
      if (typeof value !== 'string') return undefined;
      vars[name] = value;
    } else {
      vars[name] = value;
    }
    // Inside an input object too (an Int list of FIDs, a Float threshold): a value its type refuses is not sendable.
    let carried = true;
    const declared = typeFromAST(schema, definition.type);
    if (isInputType(declared)) coerceInputValue(vars[name], declared, () => (carried = false));
    if (!carried) return undefined;
  }
  return vars;
}

function restUrl(row: OperationRow, input: RouteInput): string {
  const path = row.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(input.path[name])));
  const query = new URLSearchParams(Object.entries(input.query).map(([k, v]) => [k, String(v)])).toString();
  return query ? `${path}?${query}` : path;
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * REST parameters that stand for several GraphQL arguments: `name` (label.parent) of registerCcipName is the GraphQL
 * `label` and `parent`, so a bad name is refused with the same code but names the argument it broke.
 */
const SPLIT_PARAMETERS = new Set(['registerCcipName name']);

/** A refusal's message without its `parameter <name>: ` prefix: what a renamed parameter must share. */
const issueOf = (message: string | undefined) => message?.replace(/^parameter [^:]+: /, '');

/** The parameters whose documented example is an object (webhook filters, subname records). */
function objectParameters(row: OperationRow): string[] {
  const valid = validInput(row);
  return PARTS.flatMap((part) => Object.keys(valid[part]).filter((key) => isObject(valid[part][key])));
}

interface BadInput {
  part: Part;
  /** The parameter the bad value is in. */
  key: string;
  /** Where in the parameter: `[key]` for a flat parameter, `[key, 'names']`… for a leaf of an object parameter. */
  path: string[];
  input: RouteInput;
  variables: Record<string, unknown>;
}

/** A place in an object parameter's example, and the wrong values to put there: a value, or a map's key. */
interface Leaf {
  path: string[];
  bad: readonly unknown[];
  /** A map's key (records.addresses has coin types as keys): the bad values replace its first key. */
  mapKey?: true;
}

/**
 * The leaves of an object parameter's documented example, each with its wrong values: texts at string leaves, lists at
 * list leaves, and a wrong key in each map (an object the schema types by `additionalProperties`, not `properties`).
 */
function leavesOf(example: unknown, schema: JsonSchema | undefined, path: string[]): Leaf[] {
  if (typeof example === 'string') return [{ path, bad: BAD_TEXT }];
  if (typeof example === 'number') return [{ path, bad: BAD_NUMBERS }];
  if (Array.isArray(example)) {
    const items = schema?.items as JsonSchema | undefined;
    // The list (empty, too long…), then its items: a list of input objects by every element's leaves (GraphQL cannot
    // carry a text in place of one), a list of values by its first item.
    const elements = isObject(example[0]) ? example : example.slice(0, 1);
    return [{ path, bad: BAD_LISTS }, ...elements.flatMap((item, i) => leavesOf(item, items, [...path, String(i)]))];
  }
  if (!isObject(example)) return [];
  const properties = schema?.properties as Record<string, JsonSchema> | undefined;
  const mapValues = properties === undefined ? (schema?.additionalProperties as JsonSchema | undefined) : undefined;
  const entries = Object.entries(example as Record<string, unknown>);
  return [
    ...(mapValues !== undefined && entries.length > 0 ? [{ path, bad: BAD_TEXT, mapKey: true as const }] : []),
    ...entries.flatMap(([name, value]) => leavesOf(value, properties?.[name] ?? mapValues, [...path, name])),
  ];
}

/** `value` with `bad` at `leaf`: the leaf's value replaced, or for a map key its first key renamed. */
function withBad(value: Record<string, unknown>, leaf: Leaf, bad: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  const parentPath = leaf.mapKey ? leaf.path : leaf.path.slice(0, -1);
  const parent = parentPath.reduce<Record<string, unknown>>((at, step) => at[step] as Record<string, unknown>, copy);
  if (leaf.mapKey) {
    const [first, ...rest] = Object.entries(parent);
    for (const name of Object.keys(parent)) delete parent[name];
    Object.assign(parent, Object.fromEntries([[String(bad), first?.[1]], ...rest]));
  } else {
    parent[leaf.path.at(-1)!] = bad;
  }
  return copy;
}

/**
 * For each parameter, and each leaf of an object or list parameter, the first wrong value that the REST schema refuses
 * there and GraphQL's types can carry; `unprobed` names the parameters and leaves where REST refused wrong values but
 * GraphQL's types carried none of them (one that takes any text, a text record's value, is not one).
 */
function badInputs(schema: GraphQLSchema, compiled: CompiledOperationRow): { found: BadInput[]; unprobed: string[] } {
  const { row } = compiled;
  const valid = validInput(row);
  const found: BadInput[] = [];
  const unprobed: string[] = [];
  for (const part of PARTS) {
    const partSchema = row.params?.[part];
    if (!partSchema) continue;
    const declared = zodJsonSchema({ schema: partSchema, componentName: (id) => id }).resolved;
    const properties = (declared.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of Object.keys(partSchema.shape)) {
      const example = valid[part][key];
      const type = properties[key]?.type;
      // An object parameter (webhook filters, subname records) is probed one leaf of its example at a time: GraphQL
      // carries it as the operation's input object, which a text in its place would not be. A list is probed as a
      // list, then at its first item.
      const leaves: Leaf[] =
        isObject(example) || (Array.isArray(example) && example.length > 0)
          ? leavesOf(example, properties[key], [key])
          : type === 'object'
            ? []
            : [{ path: [key], bad: Array.isArray(example) || type === 'array' ? BAD_LISTS : BAD_TEXT }];
      for (const leaf of leaves) {
        const before = found.length;
        let refused = false;
        for (const bad of leaf.bad) {
          const partValue = withBad(valid[part], leaf, bad);
          if (!refusesAt(partSchema, partValue, leaf.mapKey ? [...leaf.path, String(bad)] : leaf.path)) continue;
          refused = true;
          const input = { ...valid, [part]: partValue };
          const variables = graphqlVariables(schema, compiled, input);
          if (variables === undefined) continue;
          found.push({
            part,
            key,
            path: leaf.mapKey ? [...leaf.path, `${String(bad)} (key)`] : leaf.path,
            input,
            variables,
          });
          break;
        }
        if (refused && found.length === before) unprobed.push(leaf.path.join('.'));
      }
    }
  }
  return { found, unprobed };
}

/** The row's whole-object refusals, sent in its valid input; a refusal REST accepts or GraphQL cannot carry is a difference. */
function objectRefusals(
  schema: GraphQLSchema,
  compiled: CompiledOperationRow,
): { found: BadInput[]; differences: string[] } {
  const { row } = compiled;
  const found: BadInput[] = [];
  const differences: string[] = [];
  for (const [i, { part, key, value }] of (OBJECT_REFUSALS[row.id] ?? []).entries()) {
    const input = { ...validInput(row), [part]: value };
    const variables = graphqlVariables(schema, compiled, input);
    if (row.params?.[part]?.safeParse(value).success !== false) differences.push(`${row.id}: refusal ${i} is accepted`);
    else if (variables === undefined) differences.push(`${row.id}: refusal ${i} cannot be sent to GraphQL`);
    else found.push({ part, key, path: [key], input, variables });
  }
  return { found, differences };
}

describe('REST and GraphQL refuse the same bad input with the same 400 code and message', () => {
  let server: TestServer;
  let operations: CompiledOperationRow[];
  let apiSchema: GraphQLSchema;
  beforeAll(async () => {
    const subgraphs = await buildAllSubgraphs();
    const gateway = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    apiSchema = gateway.apiSchema;
    operations = [...compileRouteTable(ROUTE_TABLE, gateway.apiSchema).values()].filter(
      ({ row }) => row.params !== undefined,
    );
    await gateway.stop();
    server = await sharedTestServer();
  });

  it("the full samples complete valid inputs: each, with its row's documented example, is accepted by the REST schema", () => {
    const sampled = operations.filter(({ row }) => FULL_SAMPLES[row.id] !== undefined);
    expect(sampled.map(({ row }) => row.id).sort()).toEqual(Object.keys(FULL_SAMPLES).sort());
    const refused = sampled.flatMap(({ row }) =>
      PARTS.filter((part) => row.params?.[part]?.safeParse(validInput(row)[part]).success === false).map(
        (part) => `${row.id} ${part}`,
      ),
    );
    expect(refused).toEqual([]);
  });

  it('every operation row with parameters answers a bad value of each parameter, and of each leaf of an object parameter, as its GraphQL field does', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const differences: string[] = [];
    for (const compiled of operations) {
      const { row } = compiled;
      const { found: leafCases, unprobed } = badInputs(apiSchema, compiled);
      for (const leaf of unprobed) differences.push(`${row.id}: no bad value found at ${leaf}`);
      const wholes = objectRefusals(apiSchema, compiled);
      differences.push(...wholes.differences);
      const cases = [...leafCases, ...wholes.found];
      if (cases.length === 0) differences.push(`${row.id}: no bad value found for any parameter`);
      for (const key of objectParameters(row).filter((name) => !cases.some((bad) => bad.key === name))) {
        differences.push(`${row.id}: no bad value found in any leaf of the object parameter ${key}`);
      }
      for (const bad of cases) {
        const rest = await server.request({
          method: row.method,
          path: restUrl(row, bad.input),
          ...(row.params?.body
            ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(bad.input.body) }
            : {}),
        });
        const restBody = (await rest.json()) as { code?: string; message?: string };
        const graphql = await server.post('/graphql', {
          query: compiled.prepared.source,
          variables: bad.variables,
        });
        const graphqlBody = (await graphql.json()) as {
          errors?: { message: string; extensions?: { code?: string; status?: number } }[];
        };
        const first = graphqlBody.errors?.[0];
        // A parameter GraphQL knows by another name (parent_name → parent) shares the issue, not the name.
        const renamed =
          bad.key in (row.params?.[bad.part]?.shape ?? {}) &&
          !compiled.prepared.operation.variableDefinitions?.some((d) => d.variable.name.value === bad.key);
        const split = SPLIT_PARAMETERS.has(`${row.id} ${bad.key}`);
        const message = (text: string | undefined) => (split ? '' : renamed ? issueOf(text) : text);
        const restAnswer = `${rest.status} ${restBody.code} ${message(restBody.message)}`;
        const graphqlAnswer = `${first?.extensions?.status} ${first?.extensions?.code} ${message(first?.message)}`;
        if (restAnswer !== graphqlAnswer || rest.status !== 400) {
          differences.push(
            `${row.id} ${bad.part} ${bad.path.join('.')} in ${JSON.stringify(bad.input[bad.part][bad.key] ?? bad.input[bad.part]).slice(0, 80)}: REST ${restAnswer} / GraphQL ${graphqlAnswer}`,
          );
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
