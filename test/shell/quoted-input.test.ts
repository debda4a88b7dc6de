/**
 * A value the caller sent is quoted in an error at a bounded length: a megabyte-long session id,
 * count or query comes back (and goes to the log) as its start and its size, never in full.
 */
import * as assert from 'node:assert/strict';
import { quoteInput } from '../../src/common/quoteInput';
import { parseUri } from '../../src/lsp/uri';
import { CALL_HIERARCHY, DIAGNOSTICS, SYMBOLS } from '../../src/tools/declarations/navigation';
import { TERMINAL_READ, TERMINAL_SEND } from '../../src/tools/declarations/terminal';
import { validateToolInput } from '../../src/tools/validateInput';
import { Harness, harness } from '../helpers/terminalHarness';
import { errorMessage } from '../../src/common/errorMessage';

const huge = 'x'.repeat(1_000_000);

/** The message `fn` throws. */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return errorMessage(e);
  }
  throw new Error('it did not throw');
}

/** The message of the error `fn`'s promise rejects with. */
async function rejectionOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return errorMessage(e);
  }
  throw new Error('it did not reject');
}

/** Asserts that `message` quotes the start of the huge value and says its size, in a bounded length. */
function bounded(message: string): void {
  assert.ok(message.length < 1000, `the error is ${message.length} characters long`);
  assert.match(message, /"xxxxxxxxxx[^"]*…" \(1000000 characters\)/, message.slice(0, 300));
}

describe('values quoted in errors', () => {
  it('quoteInput: short values as JSON, long ones cut with their size', () => {
    assert.equal(quoteInput('SIGUSR1'), '"SIGUSR1"');
    assert.equal(quoteInput(1.5), '1.5');
    assert.equal(quoteInput(undefined), 'undefined');
    assert.equal(quoteInput({ a: [1] }), '{"a":[1]}');
    assert.equal(quoteInput('😀'.repeat(60)), `"${'😀'.repeat(20)}…" (120 characters)`);
    assert.equal(quoteInput(`a${'😀'.repeat(60)}`), `"a${'😀'.repeat(19)}…" (121 characters)`, 'never cuts a surrogate pair');
    assert.equal(quoteInput([huge]), `["${'x'.repeat(38)}… (1000004 characters)`);
  });

  it('terminal tool arguments', () => {
    bounded(messageOf(() => validateToolInput(TERMINAL_SEND, { sessionId: 'pty-1', timeoutMs: huge })));
    bounded(messageOf(() => validateToolInput(TERMINAL_READ, { sessionId: 'pty-1', raw: huge })));
  });

  describe('terminal service', function () {
    this.timeout(60_000);
    let h: Harness;
    beforeEach(() => (h = harness()));
    afterEach(() => h.dispose());

    it('an unknown session id or job id', async () => {
      bounded(messageOf(() => h.service.read(h.owner, huge)));
      bounded(messageOf(() => h.service.signal(h.owner, huge, 'SIGINT')));
      const { sessionId } = await h.service.open(h.owner);
      bounded(await rejectionOf(() => h.service.output(h.owner, sessionId, huge)));
      bounded(messageOf(() => h.service.signal(h.owner, sessionId, huge)));
    });
  });

  it('navigation tool input and URIs', () => {
    bounded(messageOf(() => validateToolInput(SYMBOLS, { query: 'a', kinds: [huge] })));
    bounded(messageOf(() => validateToolInput(SYMBOLS, { query: 'a', offset: huge })));
    bounded(messageOf(() => validateToolInput(DIAGNOSTICS, { severity: huge })));
    bounded(messageOf(() => validateToolInput(CALL_HIERARCHY, { filePath: 'a.ts', line: 1, column: 1, direction: huge })));
    bounded(messageOf(() => validateToolInput(CALL_HIERARCHY, { filePath: 'a.ts', line: huge, column: 1, direction: 'incoming' })));
    bounded(messageOf(() => parseUri(huge)));
    assert.ok(messageOf(() => validateToolInput(SYMBOLS, { query: 'a', [huge]: 1 })).length < 1000, 'an unknown key is quoted in full');
  });
});
