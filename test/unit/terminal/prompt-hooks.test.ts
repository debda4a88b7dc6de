/**
 * The prompt hooks section of the traps report (promptHooks.ts): the words bash's and zsh's
 * `printf %q` write, read back as the text they quote, and the hook lines as a confirmation shows
 * them. The quoted words are produced here by the real shells.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readPromptHooks, unquoteShellWord } from '../../../src/terminal/readiness/promptHooks';

describe('prompt hooks report', () => {
  const texts = ['touch x', "it's", '$(touch x)', 'a\nb\tc', 'é ünï', '\x1b[31m', 'back\\slash', '', '--dsh-traps'];

  for (const shell of ['bash', 'zsh']) {
    it(`reads back every word ${shell}'s printf %q writes`, () => {
      const out = execFileSync(shell, ['-c', 'printf "%q\\n" "$@"', 'sh', ...texts], { encoding: 'utf8' });
      const words = out.split('\n').slice(0, texts.length);
      assert.deepEqual(words.map(unquoteShellWord), texts);
    });
  }

  it("shows each hook single-quoted after where it runs, the startup files' apart, leaves out empty ones, and has none without the section", () => {
    const names = [
      '--names',
      '--functions',
      '--end',
      '--hooks',
      'PS0 \\$\\(touch\\ x\\)',
      '=PROMPT_COMMAND mine',
      "PROMPT_COMMAND ''",
      'PROMPT_COMMAND mine',
      "PROMPT_COMMAND it\\'s",
      '',
    ].join('\n');
    assert.deepEqual(readPromptHooks(names), {
      startup: ["PROMPT_COMMAND: 'mine'"],
      added: ["PS0: '$(touch x)'", "PROMPT_COMMAND: 'it'\\''s'"],
    });
    assert.equal(readPromptHooks('--names\n--functions\n--end\n'), undefined);
    assert.equal(unquoteShellWord("'open"), undefined);
  });
});
