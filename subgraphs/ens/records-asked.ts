import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode, valueFromASTUntyped } from 'graphql';
import { ensCoins, ensTextKeys } from '../../src/arguments/ens-arguments.js';
import type { ProfileExtras } from '../../src/sources/ens/ens-chain-reader.js';

/** The EnsProfile fields that ask a record by argument, and the argument naming it (one value or a list). */
const RECORD_FIELDS = {
  text: { argument: 'key', kind: 'textKeys' },
  texts: { argument: 'keys', kind: 'textKeys' },
  coinAddress: { argument: 'coin', kind: 'coinTypes' },
  coinAddresses: { argument: 'coins', kind: 'coinTypes' },
} as const;

/**
 * The text keys and coin types an operation asks of the profiles a field returns (`text(key:)`, `texts(keys:)`,
 * `coinAddress(coin:)`, `coinAddresses(coins:)` in its selection, fragments included), so the profile read asks them
 * in the same Universal Resolver call rather than a second round trip. An argument that does not parse is left to
 * its field, which refuses it with the 400 REST gives.
 * @example recordsAsked(info) // { textKeys: ['org.example.custom'], coinTypes: [0, 501] }
 */
export function recordsAsked(info: GraphQLResolveInfo): ProfileExtras {
  const textKeys: string[] = [];
  const coinTypes: number[] = [];
  const seenFragments = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        if (seenFragments.has(name)) continue;
        seenFragments.add(name);
        visit(info.fragments[name]?.selectionSet);
      } else if (Object.hasOwn(RECORD_FIELDS, selection.name.value)) {
        const rule = RECORD_FIELDS[selection.name.value as keyof typeof RECORD_FIELDS];
        const value = argumentValue(selection, rule.argument, info.variableValues);
        const list = Array.isArray(value) ? value : [value];
        if (rule.kind === 'textKeys') {
          const parsed = ensTextKeys.safeParse(list);
          if (parsed.success) textKeys.push(...parsed.data);
        } else {
          const parsed = ensCoins.safeParse(list);
          if (parsed.success) coinTypes.push(...parsed.data);
        }
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  return { textKeys: [...new Set(textKeys)], coinTypes: [...new Set(coinTypes)] };
}

function argumentValue(field: FieldNode, name: string, variables: Record<string, unknown>): unknown {
  const argument = field.arguments?.find((a) => a.name.value === name);
  return argument === undefined ? undefined : valueFromASTUntyped(argument.value, variables);
}
