/**
 * The names of an object's methods, its own and its prototypes' (Object's aside), `constructor` aside: what a layer
 * over a store wraps once, when it is made, instead of looking each method up on every call (a Proxy's `get`).
 * @example for (const name of methodNames(store)) layer[name] = wrap(name, Reflect.get(store, name))
 */
export function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = target; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name !== 'constructor' && typeof Reflect.get(target, name) === 'function') names.add(name);
    }
  }
  return [...names];
}
