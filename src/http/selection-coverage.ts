import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  print,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/** An argument of a field as written: a variable stands for any value, a literal for itself. */
type ArgumentValue = { variable: true } | { variable: false; literal: string };

/**
 * One field of a selection with everything selected under it, fragments flattened and fields of one name and one set
 * of arguments merged, as GraphQL's own field collection merges them.
 */
export interface FieldSelection {
  name: string;
  args: ReadonlyMap<string, ArgumentValue>;
  children: readonly FieldSelection[];
}

/** A document's fragments by name. */
export function fragmentsOf(document: DocumentNode | undefined): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document?.definitions ?? []) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  return fragments;
}

function argumentValue(value: ValueNode): ArgumentValue {
  return value.kind === Kind.VARIABLE ? { variable: true } : { variable: false, literal: print(value) };
}

function argumentsKey(field: FieldNode): string {
  return (field.arguments ?? [])
    .map((a) => `${a.name.value}:${a.value.kind === Kind.VARIABLE ? '$' : print(a.value)}`)
    .sort()
    .join(',');
}

/**
 * The fields `sets` select, merged by name and arguments; `__typename` (free everywhere) is left out. Each
 * fragment is expanded once per level, so a fragment spread many times costs no more than once (no fragment bomb).
 * @example selectedFields([operation.selectionSet], fragmentsOf(document))
 */
export function selectedFields(
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FieldSelection[] {
  const merged = new Map<string, { first: FieldNode; subsets: SelectionSetNode[] }>();
  const expanded = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === '__typename') continue;
        const key = `${sel.name.value}(${argumentsKey(sel)})`;
        const entry = merged.get(key) ?? { first: sel, subsets: [] };
        if (sel.selectionSet) entry.subsets.push(sel.selectionSet);
        merged.set(key, entry);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        collect(sel.selectionSet);
      } else if (!expanded.has(sel.name.value)) {
        expanded.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) collect(set);
  return [...merged.values()].map(({ first, subsets }) => ({
    name: first.name.value,
    args: new Map((first.arguments ?? []).map((a) => [a.name.value, argumentValue(a.value)])),
    children: subsets.length === 0 ? [] : selectedFields(subsets, fragments),
  }));
}

/** Whether `offered` accepts whatever `asked` passes: a variable takes any value, a literal only itself. */
function argumentsCovered(offered: FieldSelection['args'], asked: FieldSelection['args']): boolean {
  for (const name of new Set([...offered.keys(), ...asked.keys()])) {
    const mine = offered.get(name);
    const theirs = asked.get(name);
    if (mine?.variable) continue;
    if (mine === undefined || theirs === undefined || theirs.variable || mine.literal !== theirs.literal) return false;
  }
  return true;
}

/**
 * Whether `offered` (what a route row runs) does at least everything `asked` (a caller's field) does: the same field
 * with arguments it accepts, and every field selected under it covered in turn.
 * @example covers(rowField, callerField) // true for a row's `ensProfile { name address … }` and a caller's `ensProfile { name }`
 */
export function covers(offered: FieldSelection, asked: FieldSelection): boolean {
  if (offered.name !== asked.name || !argumentsCovered(offered.args, asked.args)) return false;
  return asked.children.every((child) => offered.children.some((mine) => covers(mine, child)));
}
