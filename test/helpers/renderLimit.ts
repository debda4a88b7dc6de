/** Test support: what a send's output looks like when its render stopped at the render budget. */
import * as assert from 'node:assert/strict';
import { RENDER_LIMIT_NOTICE } from '../../src/terminal/output/screenText';
import type { SendResult } from '../../src/terminal/types';

/**
 * Asserts that `result` says renderLimited, that its output starts with the line `before`, holds
 * the notice (RENDER_LIMIT_NOTICE) on a line of its own, and that the plain rest after it is the
 * one line `after`. Throws AssertionError otherwise.
 */
export function assertRenderedBeforeAfter(result: SendResult): void {
  assert.equal(result.renderLimited, true);
  const lines = result.output.split('\n');
  const notice = lines.indexOf(RENDER_LIMIT_NOTICE);
  assert.ok(notice > 0 && lines[0] === 'before', result.output.slice(0, 200));
  assert.deepEqual(lines.slice(notice + 1).filter(Boolean), ['after']);
}
