import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Introspection is exempt from the depth limit, as in GraphQL Armor, so GraphiQL and codegen keep working. */
const isIntrospectionField = (name: string) => name === '__schema' || name === '__type';

/** Depth of a selection; each fragment's depth is computed once (`depths`), so spreading one many times costs nothing. */
function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  depths: Map<string, number>,
  entered: Set<string>,
): number {
  if (!set) return 0;
  let deepest = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (isIntrospectionField(sel.name.value)) continue;
      deepest = Math.max(
        deepest,
        sel.selectionSet ? 1 + selectionDepth(sel.selectionSet, fragments, depths, entered) : 1,
      );
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, selectionDepth(sel.selectionSet, fragments, depths, entered));
    } else {
      const name = sel.name.value;
      const frag = fragments.get(name);
      if (!frag || entered.has(name)) continue; // unknown and cyclic fragments are other rules' errors
      let depth = depths.get(name);
      if (depth === undefined) {
        entered.add(name);
        depth = selectionDepth(frag.selectionSet, fragments, depths, entered);
        entered.delete(name);
        depths.set(name, depth);
      }
      deepest = Math.max(deepest, depth);
    }
  }
  return deepest;
}

/** Refuses operations nested deeper than `max` fields (GRAPHQL_MAX_DEPTH). */
export function maxDepthRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    return {
      OperationDefinition(node) {
        const depth = selectionDepth(node.selectionSet, fragments, new Map(), new Set());
        if (depth > max) {
          context?.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the maximum of ${max}`, {
              nodes: [node],
              extensions: { code: 'INVALID_PARAMETER' },
            }),
          );
        }
      },
    };
  };
}

/** Refuses documents with more than `max` aliases (GRAPHQL_MAX_ALIASES): aliases multiply upstream work. */
export function maxAliasesRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias || node.alias.value === '__typename') return;
        aliases += 1;
        if (aliases > max && !reported) {
          reported = true;
          context?.reportError(
            new GraphQLError(`Document has more than ${max} aliases`, { extensions: { code: 'INVALID_PARAMETER' } }),
          );
        }
      },
    };
  };
}

/**
 * Refuses operations whose GraphQL Armor cost (object 2, scalar 1, × 1.5 per level, fragments counted where spread)
 * exceeds `max` (GRAPHQL_MAX_COST); `__schema` costs nothing here, since introspection is counted as a Medium call.
 */
export function maxCostRule(max: number): ValidationRule {
  return costLimitRule({
    maxCost: max,
    // Armor throws out of validation by default; reported, the refusal is a 400 like the other limits.
    propagateOnRejection: false,
    onReject: [
      (context, error) =>
        context?.reportError(
          new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
            extensions: { code: 'INVALID_PARAMETER' },
          }),
        ),
    ],
  });
}
