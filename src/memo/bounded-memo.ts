/**
 * Values made once per key and reused, at most `max` of them (past it the oldest made goes). For small derived
 * values on the request path (a caller's quota plan, an anonymous caller): reusing the same key strings and objects
 * spares building and hashing them again on every call.
 * @example const plans = new BoundedMemo<string, QuotaPlan>(10_000); plans.get(key, () => quotaPlan(...))
 */
export class BoundedMemo<K, V extends NonNullable<unknown>> {
  private readonly values = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K, make: () => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make();
      if (this.values.size >= this.max) this.values.delete(this.values.keys().next().value!);
      this.values.set(key, value);
    }
    return value;
  }

  /** The value kept for `key`, if any (made by nothing: a caller that checks it first then sets it). */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  /** Replaces the value of a key (a stale one). */
  set(key: K, value: V): void {
    this.values.delete(key);
    if (this.values.size >= this.max) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, value);
  }
}
