/**
 * The declared validator's errors say what to do instead where a rule has a usual way round it:
 * a control character in text to type points to `keys`, a line below 1 says lines are 1-based.
 */
import * as assert from 'node:assert/strict';
import { validateToolInput } from '../../../src/tools/validateInput';
import { RUN, TERMINAL_SEND } from '../../../src/tools/declarations/terminal';
import { CALL_HIERARCHY, LSP } from '../../../src/tools/declarations/navigation';
import { ToolInputError } from '../../../src/tools/inputError';

/** The ToolInputError `validateToolInput` throws for `input`. */
function refusal(declaration: Parameters<typeof validateToolInput>[0], input: unknown): ToolInputError {
  try {
    validateToolInput(declaration, input);
  } catch (e) {
    if (e instanceof ToolInputError) return e;
    throw e;
  }
  assert.fail(`${declaration.name} accepted ${JSON.stringify(input)}`);
}

describe('tool input errors: the way round a rule', () => {
  it('dsh_terminal_send: a control character in input points to keys, naming the key it stands for', () => {
    const e = refusal(TERMINAL_SEND, { sessionId: 'pty-1', input: 'sleep 9\u0003' });
    assert.equal(e.fields.property, 'input');
    assert.match(
      e.message,
      /`input` is not valid: U\+0003 at character 8 is a control character \(Ctrl-C\)\. To press keys, send them by name in `keys` instead of `input`, e\.g\. keys \["Ctrl-C"\]/,
    );
  });

  it('dsh_run: a control character in command points to dsh_terminal_send with keys', () => {
    const e = refusal(RUN, { command: 'echo a\u001b' });
    assert.equal(e.fields.property, 'command');
    assert.match(
      e.message,
      /`command` is not valid: U\+001B at character 7 is a control character \(Escape\)\. To press keys \(Ctrl-C, arrows, Ctrl-D\), use dsh_terminal_send with keys on the session id dsh_run returned/,
    );
  });

  it('a bidirectional control or an unpaired surrogate is not a key: no keys hint', () => {
    assert.doesNotMatch(refusal(TERMINAL_SEND, { sessionId: 'pty-1', input: 'echo \u202Eexe' }).message, /keys/);
    assert.doesNotMatch(refusal(RUN, { command: 'echo \ud800' }).message, /keys/);
  });

  it('dsh_lsp and dsh_call_hierarchy: line 0 says lines are 1-based and that a line past the end names the file’s range', () => {
    for (const [d, extra] of [
      [LSP, { operation: 'hover' }],
      [CALL_HIERARCHY, { direction: 'incoming' }],
    ] as const) {
      const e = refusal(d, { ...extra, filePath: 'a.ts', line: 0, column: 1 });
      assert.equal(e.fields.property, 'line');
      assert.match(
        e.message,
        /`line` is not valid \(got 0\); valid: an integer ≥ 1; lines are 1-based: line 1 is the file's first line \(a line past the file's end is refused naming the file's range\)\.$/,
      );
    }
  });
});
