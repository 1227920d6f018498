import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { fieldSchema, type GraphqlJsonSchemas, wrappedSchema } from './graphql-json-schema.js';
import type { JsonSchema } from './openapi-types.js';

export interface SelectionJsonSchemaParams {
  /** The supergraph API schema the operation runs against. */
  schema: GraphQLSchema;
  /** The row's operation (one operation, no named fragments). */
  document: DocumentNode;
  /** Response key of the root field whose value is the body. */
  field: string;
  /** Leaf schemas and the components a whole-type selection refers to. */
  graphql: GraphqlJsonSchemas;
  /** Write every object out in full (a row's shape rewrites parts of it); else a whole-type selection is a `$ref`. */
  inline?: boolean;
}

/** The fields selected on one object value, as they will appear in the response. */
interface Selection {
  properties: Record<string, JsonSchema>;
  required: string[];
  /** Whether each field is selected once under its own name with a whole-type selection below: the type's component fits. */
  whole: boolean;
  fieldNames: Set<string>;
}

interface Frame {
  node: FieldNode;
  type: GraphQLOutputType;
  def: GraphQLField<unknown, unknown>;
  selection: Selection;
}

const emptySelection = (): Selection => ({ properties: {}, required: [], whole: true, fieldNames: new Set() });

/**
 * The JSON Schema of the 200 body a row's operation answers, walked from its selection set with `TypeInfo`: only the
 * fields selected, under their aliases, with GraphQL's nullability, lists, enums and scalars. A selected field is
 * always present in the answer (required) unless `@skip` or `@include` may leave it out. The body itself is non-null
 * (a null root field is a 404).
 * @example selectionJsonSchema({ schema, document: parse('{ ensResolve(name: "a.eth") { address } }'), field: 'ensResolve', graphql })
 * // { type: 'object', required: ['address'], properties: { address: { type: 'string', … } }, … }
 */
export function selectionJsonSchema({
  schema,
  document,
  field,
  graphql,
  inline = false,
}: SelectionJsonSchemaParams): JsonSchema {
  const typeInfo = new TypeInfo(schema);
  const frames: Frame[] = [];
  let body: JsonSchema | undefined;

  const objectSchema = (frame: Frame): JsonSchema => {
    const named = getNamedType(frame.type);
    if (!isObjectType(named))
      throw new Error(`selection of ${named.name}: only object types are documented (no interfaces or unions)`);
    const { selection } = frame;
    if (!inline && wholeSelection(frame)) return graphql.namedSchema(named);
    return {
      type: 'object',
      required: selection.required,
      properties: selection.properties,
      ...(named.description ? { description: named.description } : {}),
    };
  };

  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      FragmentSpread() {
        throw new Error('named fragments are not documented: write the fields in the operation');
      },
      Field: {
        enter(node) {
          const type = typeInfo.getType();
          const def = typeInfo.getFieldDef();
          if (!type || !def) throw new Error(`field ${node.name.value} is not in the schema`);
          frames.push({ node, type, def, selection: emptySelection() });
        },
        leave() {
          const frame = frames.pop()!;
          const { node, type, def } = frame;
          const key = node.alias?.value ?? node.name.value;
          const named = getNamedType(type);
          const isRoot = frames.length === 0;
          const value = isCompositeType(named) ? objectSchema(frame) : graphql.namedSchema(named);
          if (isRoot) {
            if (key === field) body = wrappedSchema(type, value, { nonNull: true });
            return;
          }
          const parent = frames.at(-1)!.selection;
          if (parent.properties[key] !== undefined) throw new Error(`${key} is selected twice: select it once`);
          parent.properties[key] = fieldSchema(def, value);
          const conditional = (node.directives ?? []).some(
            (d) => d.name.value === 'skip' || d.name.value === 'include',
          );
          if (!conditional) parent.required.push(key);
          parent.fieldNames.add(node.name.value);
          if (key !== node.name.value || key.startsWith('__') || conditional || !wholeSelection(frame))
            parent.whole = false;
        },
      },
    }),
  );
  if (body === undefined) throw new Error(`the operation does not select ${field}`);
  if (document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length !== 1)
    throw new Error('a row runs exactly one operation');
  return body;
}

/** Whether a field's value is all of its type: a leaf, or every field of its object type selected whole. */
function wholeSelection({ type, selection }: Frame): boolean {
  const named = getNamedType(type);
  if (!isCompositeType(named)) return true;
  return isObjectType(named) && selection.whole && selection.fieldNames.size === Object.keys(named.getFields()).length;
}
