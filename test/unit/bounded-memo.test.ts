import { describe, expect, it, vi } from 'vitest';
import { BoundedMemo } from '../../src/memo/bounded-memo.js';

describe('a bounded memo', () => {
  it('makes the value of a key once and then returns the same value', () => {
    const memo = new BoundedMemo<string, { plan: string }>(10);
    const make = vi.fn(() => ({ plan: 'free' }));

    const first = memo.get('ip:1.2.3.4', make);
    const second = memo.get('ip:1.2.3.4', make);

    expect(second).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('makes one value per key', () => {
    const memo = new BoundedMemo<string, string>(10);
    const make = vi.fn((key: string) => `plan of ${key}`);

    expect(memo.get('a', () => make('a'))).toBe('plan of a');
    expect(memo.get('b', () => make('b'))).toBe('plan of b');
    expect(memo.get('a', () => make('a'))).toBe('plan of a');
    expect(memo.get('b', () => make('b'))).toBe('plan of b');
    expect(make.mock.calls).toEqual([['a'], ['b']]);
  });

  it('drops the oldest key once more than max keys are made', () => {
    const memo = new BoundedMemo<string, string>(3);
    for (const key of ['a', 'b', 'c', 'd']) memo.get(key, () => key);

    const make = vi.fn(() => 'again');
    // b, c and d are kept; a was the oldest and is made again.
    expect(memo.get('b', make)).toBe('b');
    expect(memo.get('c', make)).toBe('c');
    expect(memo.get('d', make)).toBe('d');
    expect(make).not.toHaveBeenCalled();
    expect(memo.get('a', make)).toBe('again');
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('replaces the value of a key with set', () => {
    const memo = new BoundedMemo<string, string>(3);
    memo.get('a', () => 'stale');

    memo.set('a', 'fresh');

    const make = vi.fn(() => 'made');
    expect(memo.get('a', make)).toBe('fresh');
    expect(make).not.toHaveBeenCalled();
  });

  it('keeps at most max keys when values are set', () => {
    const memo = new BoundedMemo<string, string>(2);
    memo.set('a', 'A');
    memo.set('b', 'B');
    memo.set('a', 'A2'); // replacing a key does not drop another one
    memo.set('c', 'C'); // b is now the oldest

    const make = vi.fn(() => 'made');
    expect(memo.get('a', make)).toBe('A2');
    expect(memo.get('c', make)).toBe('C');
    expect(make).not.toHaveBeenCalled();
    expect(memo.get('b', make)).toBe('made');
  });
});
