/** The input rules of src/terminal/input/input.ts on real strings, and their agreement with package.json. */
import * as assert from 'node:assert/strict';
import {
  KEY_NAMES,
  MAX_KEY_NAME_UNITS,
  checkKeys,
  checkLabel,
  checkSendInput,
  checkText,
  keyBytes,
  keyLabel,
  keyNamesSummary,
  visibleText,
} from '../../../src/terminal/input/input';
import { MAX_LINE_KEYS_KEPT, judgeLeftoverKeys, judgePromptKeys } from '../../../src/terminal/input/promptKeys';
import { packageJson } from '../../helpers/packageJson';

describe('terminal input rules', () => {
  it('text: newline, tab and CR LF pass (CR LF becomes a newline); printable Unicode passes', () => {
    assert.equal(checkText('a\tb\r\nc\n'), 'a\tb\nc\n');
    assert.equal(checkText('héllo 😀 中文 ‎'), 'héllo 😀 中文 ‎');
  });

  it('text: every C0 control but newline and tab, DEL, C1 and bidi controls are refused naming the code point', () => {
    const refused: number[] = [];
    for (let cp = 0; cp <= 0x9f; cp++) {
      try {
        checkText(`x${String.fromCharCode(cp)}`);
      } catch (e) {
        assert.match((e as Error).message, new RegExp(`U\\+${cp.toString(16).toUpperCase().padStart(4, '0')} at character 2`));
        refused.push(cp);
      }
    }
    const expected = [
      ...Array.from({ length: 0x20 }, (_, i) => i).filter((cp) => cp !== 9 && cp !== 10),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    ];
    assert.deepEqual(refused, expected);
    for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      assert.throws(() => checkText(`a${String.fromCodePoint(cp)}`), new RegExp(`U\\+${cp.toString(16).toUpperCase()}.*bidirectional`));
    }
    assert.throws(() => checkText('a\ud800b'), /U\+D800.*unpaired/);
  });

  it('text: the error names the key and how to press keys instead; positions count characters', () => {
    assert.throws(() => checkText('😀\u0003'), /input contains U\+0003 at character 2, a control character \(Ctrl-C\).*keys \["Ctrl-C"\]/);
    assert.throws(
      () => checkText('ls\u001b', 'command', 'use dsh_terminal_send'),
      /^TerminalError|command contains U\+001B.*Escape.*use dsh_terminal_send/,
    );
  });

  it('labels: one line of printable text', () => {
    assert.equal(checkLabel('build · api', 'name'), 'build · api');
    assert.throws(() => checkLabel('a\tb', 'name'), /name contains U\+0009, a tab/);
  });

  it('visibleText shows refused characters as their code point', () => {
    assert.equal(visibleText('a\u202Eb\nc\u0007'), 'a⟨U+202E⟩b⟨U+000A⟩c⟨U+0007⟩');
    assert.equal(visibleText('a\nb', true), 'a\nb');
  });

  it('visibleText shows invisible characters (format, separators, default ignorables, Hangul fillers, odd spaces) and its own bracket by code point', () => {
    const invisible = [
      0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x061c, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x00ad, 0x2028, 0x2029, 0x3164,
      0x115f, 0x1160, 0xffa0, 0x034f, 0x180e, 0xfe0f, 0xe0041, 0xe0100, 0x00a0, 0x2003, 0x3000,
    ];
    for (const cp of invisible) {
      assert.equal(
        visibleText(`a${String.fromCodePoint(cp)}b`),
        `a⟨${`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`}⟩b`,
        cp.toString(16),
      );
    }
    assert.equal(visibleText('⟨U+200B⟩'), '⟨U+27E8⟩U+200B⟩', 'a typed ⟨U+200B⟩ differs from the character');
    assert.equal(visibleText('héllo 中文 a b\tc', true), 'héllo 中文 a b\tc');
  });

  it('text and labels with invisible characters are typed as they are (only shown by code point): RLM in Arabic, ZWJ in emoji', () => {
    for (const text of ['echo "مرحبا\u200f"', 'echo 👩\u200d💻', 'echo \u3164']) assert.equal(checkText(text), text);
    assert.equal(checkLabel('build\u200b', 'name'), 'build\u200b');
  });

  it('keys: canonical names, case-insensitive, + or - after Ctrl; single characters type themselves', () => {
    assert.deepEqual(checkKeys(['enter', 'ctrl+c', 'CTRL-d', 'esc', 'Return', 'shift+tab', 'q', 'Q', 'é']), [
      'Enter',
      'Ctrl-C',
      'Ctrl-D',
      'Escape',
      'Enter',
      'Shift-Tab',
      'q',
      'Q',
      'é',
    ]);
    assert.throws(() => checkKeys(['\u0001']), /keys\[0\] "\\u0001" is not a key/);
    assert.throws(() => checkKeys([' ']), /not a key/);
    assert.throws(() => checkKeys(['ab']), /not a key; valid names: Enter/);
    assert.throws(() => checkKeys('Enter'), /non-empty array/);
    assert.throws(() => checkKeys(Array(257).fill('a')), /at most 256/);
  });

  it('keys: the bytes an xterm sends, cursor keys by DECCKM', () => {
    assert.equal(
      keyBytes(['Enter', 'Tab', 'Escape', 'Backspace', 'Ctrl-A', 'Ctrl-D', 'Ctrl-\\', 'Space', 'q']),
      '\r\t\x1b\x7f\x01\x04\x1c q',
    );
    assert.equal(keyBytes(['Up', 'Down', 'Right', 'Left', 'Home', 'End']), '\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F');
    assert.equal(keyBytes(['Up', 'Home'], true), '\x1bOA\x1bOH');
    assert.equal(keyBytes(['Delete', 'PageUp', 'F1', 'F5', 'F12']), '\x1b[3~\x1b[5~\x1bOP\x1b[15~\x1b[24~');
    assert.equal(keyLabel('Enter'), 'Enter');
    assert.equal(keyLabel('`'), '"`"');
  });

  it("keys at bash's prompt: a key that runs the line after one that puts text not shown is refused; Ctrl-C empties nothing until a new prompt", () => {
    assert.deepEqual(judgePromptKeys(['Up']), { line: { keys: ['Up'], more: 0, unshown: 'Up' } });
    assert.deepEqual(judgePromptKeys(['Up', 'Enter']).refusal, {
      kind: 'runs-unshown',
      run: { key: 'Enter', index: 1 },
      by: { key: 'Up', index: 0 },
    });
    assert.deepEqual(judgePromptKeys(['Ctrl-J'], { keys: ['x', 'Tab'], more: 0, unshown: 'Tab' }).refusal, {
      kind: 'runs-unshown',
      run: { key: 'Ctrl-J', index: 0 },
      by: { key: 'Tab', index: undefined },
    });
    assert.deepEqual(judgePromptKeys(['Ctrl-O']).refusal, { kind: 'refused-key', key: { key: 'Ctrl-O', index: 0 } });
    assert.deepEqual(judgePromptKeys(['Up', 'Ctrl-X', 'Ctrl-E']).refusal, { kind: 'refused-key', key: { key: 'Ctrl-X', index: 1 } });
    // vi's `v` (edit the line in an editor, then run it) after an Escape in this send or an earlier one; a typed v elsewhere.
    assert.deepEqual(judgePromptKeys(['Escape', 'h', 'v']).refusal, { kind: 'refused-key', key: { key: 'v', index: 2 } });
    assert.equal(judgePromptKeys(['v'], { keys: ['Escape'], more: 0, unshown: 'Escape' }).refusal?.kind, 'refused-key');
    assert.equal(judgePromptKeys(['v', 'Enter']).refusal, undefined);
    // Text no send at this prompt typed: no key may run it; vi's command mode may be on.
    assert.deepEqual(judgePromptKeys(['Enter'], { keys: [], more: 0, foreign: 'user' }).refusal, {
      kind: 'runs-foreign',
      run: { key: 'Enter', index: 0 },
      from: 'user',
    });
    assert.deepEqual(judgePromptKeys(['a'], { keys: [], more: 0, foreign: 'program' }).line, {
      keys: ['a'],
      more: 0,
      unshown: undefined,
      foreign: 'program',
    });
    assert.equal(judgePromptKeys(['v'], { keys: [], more: 0, foreign: 'user' }).refusal?.kind, 'refused-key');
    assert.deepEqual(judgePromptKeys(['l', 's', 'Enter', 'Up']).refusal, {
      kind: 'after-line',
      run: { key: 'Enter', index: 2 },
      by: { key: 'Up', index: 3 },
    });
    // Shown in full: typed characters and editing keys; a run or Ctrl-C leaves no line to follow.
    assert.deepEqual(judgePromptKeys(['l', 's', 'Left', 'Backspace', 'Ctrl-A', 'Ctrl-K', 'Space', 'Enter']), {});
    // Ctrl-C may not interrupt (stty intr undef): the line keeps what it held; a new prompt is a new line.
    assert.deepEqual(judgePromptKeys(['Up', 'Ctrl-C', 'Enter']).refusal, {
      kind: 'runs-unshown',
      run: { key: 'Enter', index: 2 },
      by: { key: 'Up', index: 0 },
    });
    assert.deepEqual(judgePromptKeys(['Up', 'Ctrl-C']), { line: { keys: ['Up', 'Ctrl-C'], more: 0, unshown: 'Up' } });
    assert.deepEqual(judgePromptKeys(['Ctrl-C', 'Up']).refusal?.kind, 'after-line');
    assert.deepEqual(judgePromptKeys(['Enter'], { keys: ['l', 's'], more: 0 }), {}, 'earlier keys all shown in full');
    // Keys beyond what is kept by name are counted, and a key not shown in full is still known.
    const many = judgePromptKeys(Array<string>(200).fill('a'), { keys: Array<string>(200).fill('b'), more: 5, unshown: 'Ctrl-Y' });
    assert.equal(many.line?.keys.length, MAX_LINE_KEYS_KEPT);
    assert.equal(many.line?.more, 5 + 400 - MAX_LINE_KEYS_KEPT);
    assert.equal(judgePromptKeys(['Enter'], many.line).refusal?.kind, 'runs-unshown');
  });

  it('keys for a program: what follows its read is judged as at an empty prompt (a line in canonical mode, the first key otherwise)', () => {
    assert.deepEqual(judgeLeftoverKeys(['y', 'Enter', 'Up', 'Enter'], true), {
      lines: true,
      after: { key: 'Enter', index: 1 },
      refusal: { kind: 'runs-unshown', run: { key: 'Enter', index: 3 }, by: { key: 'Up', index: 2 } },
    });
    assert.equal(judgeLeftoverKeys(['y', 'Up', 'Enter'], true), undefined, 'Up is part of the line the program reads');
    assert.equal(judgeLeftoverKeys(['x', 'Up'], true), undefined, 'no line ends');
    assert.equal(judgeLeftoverKeys(['y', 'Ctrl-C', 'Up', 'Ctrl-J'], true)?.after.key, 'Ctrl-C');
    assert.deepEqual(judgeLeftoverKeys(['y', 'Up', 'Enter'], false)?.refusal, {
      kind: 'runs-unshown',
      run: { key: 'Enter', index: 2 },
      by: { key: 'Up', index: 1 },
    });
    assert.equal(judgeLeftoverKeys(['y', 'Ctrl-X'], false)?.refusal.kind, 'refused-key');
    // A REPL's history, vim's :wq, a menu's choice: the first key may be anything.
    for (const keys of [['Up', 'Enter'], ['Escape', ':', 'w', 'q', 'Enter'], ['Down', 'Enter'], ['q'], ['Ctrl-C', 'Ctrl-D']]) {
      assert.equal(judgeLeftoverKeys(keys, false), undefined, JSON.stringify(keys));
    }
  });

  it('a send input is exactly one of input and keys', () => {
    assert.deepEqual(checkSendInput({ input: 'ls\r\n' }), { kind: 'text', text: 'ls\n' });
    assert.deepEqual(checkSendInput({ keys: ['Up'] }), { kind: 'keys', keys: ['Up'] });
    assert.throws(() => checkSendInput({}), /input or keys is required/);
    assert.throws(() => checkSendInput({ input: 'a', keys: ['b'] }), /not both/);
    assert.throws(() => checkSendInput({ input: 3 }), /must be a string/);
  });

  it('package.json lists the key names of the code in dsh_terminal_send, and both tools refuse controls in their description', () => {
    const tools = packageJson().contributes.languageModelTools;
    const send = tools.find((t) => t.name === 'dsh_terminal_send')!;
    assert.ok(send.inputSchema.properties.keys?.description?.includes(keyNamesSummary()), 'keys description lists keyNamesSummary()');
    assert.deepEqual(send.inputSchema.properties.keys?.items, { type: 'string', minLength: 1, maxLength: MAX_KEY_NAME_UNITS });
    assert.deepEqual(send.inputSchema.required, ['sessionId']);
    for (const name of ['dsh_terminal_send', 'dsh_run']) {
      assert.match(tools.find((t) => t.name === name)!.modelDescription, /U\+202A/);
    }
    assert.ok(KEY_NAMES.includes('Ctrl-D'));
  });
});
