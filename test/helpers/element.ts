// Indexed access in tests that must find an element: a missing one fails with a message saying
// what was missing, instead of a TypeError on `undefined` further on. Imports nothing but Node, so
// the unit tests and the bundled integration tests can both use it.
import * as assert from 'node:assert/strict';

/**
 * `items[index]` (0-based). Throws an AssertionError naming `what`, the index and the length when
 * there is no such element.
 */
export function element<T>(items: ArrayLike<T>, index: number, what: string): T {
  const item = items[index];
  assert.ok(item !== undefined, `no ${what}: index ${index} of ${items.length} elements`);
  return item;
}
