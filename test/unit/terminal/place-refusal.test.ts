// The refusal of a send whose folder or traps changed since its confirmation (input/sendAdmission.ts
// checkPlace): what it quotes of the shell's folder, traps and prompt hooks reaches the model, so a secret
// in them is redacted before the quote is cut, never cut first and left half.
import * as assert from 'node:assert/strict';
import { checkPlace } from '../../../src/terminal/input/sendAdmission';
import { redactShortText } from '../../../src/terminal/secrets/secretRedactor';

/** A made-up GitHub token of the real shape (ghp_ and 36 characters). */
const TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;

describe('the refusal of a send whose traps changed since its confirmation', () => {
  it('holds no piece of a secret in a prompt hook, wherever the quote of the traps is cut', () => {
    for (let pad = 0; pad <= 240; pad += 2) {
      // Long enough to be cut, with the token before, across or after the cut.
      const traps = {
        kind: 'set' as const,
        text: `PROMPT_COMMAND: '${'x'.repeat(pad)} gh auth login --with-token <<< ${TOKEN}; ${'y'.repeat(400)}'`,
      };
      let message = '';
      try {
        checkPlace({ traps }, { traps: { kind: 'none' } }, redactShortText);
      } catch (error) {
        // What the tool layer does to every error before the model reads it.
        message = redactShortText((error as Error).message);
      }
      assert.match(message, /^nothing was typed/);
      for (let at = 0; at + 8 <= TOKEN.length; at++)
        assert.ok(!message.includes(TOKEN.slice(at, at + 8)), `pad ${pad}: ${message.slice(-200)}`);
    }
  });

  it('holds no piece of a secret in a folder name, wherever the quote of the folder is cut', () => {
    // A folder is quoted whole up to PATH_QUOTE_UNITS (4096) units of JSON, else by its first 2048
    // units: 1500 quote marks (each two units of JSON) make this folder's JSON long enough to be
    // cut while the folder, and the refusal, are short enough to be redacted on the calling
    // thread. The token lies before, across or after the cut.
    for (let pad = 496; pad <= 544; pad += 2) {
      const cwd = `/home/p/${'"'.repeat(1500)}${'x'.repeat(pad)} ${TOKEN} /${'y '.repeat(550)}`;
      let message = '';
      try {
        checkPlace({ cwd, traps: { kind: 'none' } }, { cwd: '/home/p', traps: { kind: 'none' } }, redactShortText);
      } catch (error) {
        message = redactShortText((error as Error).message);
      }
      assert.match(message, /^nothing was typed/);
      assert.match(message, /\((\d+) characters\)/, 'the folder is quoted cut');
      for (let at = 0; at + 8 <= TOKEN.length; at++)
        assert.ok(!message.includes(TOKEN.slice(at, at + 8)), `pad ${pad}: ${message.slice(2000, 2300)}`);
      if (pad <= 500) assert.match(message, /\[redacted: GitHub token\]/, `pad ${pad}: the token before the cut is redacted`);
    }
  });
});
