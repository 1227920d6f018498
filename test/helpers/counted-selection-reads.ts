import { type DocumentNode, Kind, visit } from 'graphql';

/**
 * The document as code under test sees it, counting each time a selection set's selections are read: the work done on
 * a document, which (unlike time) does not depend on how busy the machine is. Past `limit` reads it throws, so work
 * that grows exponentially fails at once instead of running for ever.
 * @example const counted = countSelectionReads(parse(query)); validate(schema, counted.document, rules); counted.reads()
 */
export function countSelectionReads(document: DocumentNode, limit = 100_000) {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    let proxy = proxies.get(value);
    if (proxy === undefined) {
      proxy = new Proxy(value, {
        get(target, name) {
          if (name === 'selections' && ++reads > limit) throw new Error(`read more than ${limit} selection sets`);
          return wrap(Reflect.get(target, name));
        },
      });
      proxies.set(value, proxy);
    }
    return proxy;
  };
  let selectionSets = 0;
  visit(document, { [Kind.SELECTION_SET]: () => void (selectionSets += 1) });
  return {
    document: wrap(document) as DocumentNode,
    reads: () => reads,
    /** How many selection sets the document holds: reading each once is linear work. */
    selectionSets,
  };
}
