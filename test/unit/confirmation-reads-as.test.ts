/**
 * A confirmation reads as a person reads it: widths in terminal columns, words that look like
 * other words named, combining-mark runs and characters fonts do not show spelled out, and a
 * confirmation of the largest input built in bounded time.
 */
import * as assert from 'node:assert/strict';
import { MAX_INPUT_BYTES } from '../../src/terminal/input/input';
import { columns, misleadingWords } from '../../src/terminal/input/readsAs';
import { typedTextBlock } from '../../src/vscode/tools/terminal/confirmation';

describe('a confirmation reads as a person reads it', () => {
  it('measures a line in terminal columns: full-width characters take two, so the notice to scroll sideways is true', () => {
    const line = 'echo ' + 'ｆｕｌｌ'.repeat(15) + '!!!!!!!!!!!!!!'; // 79 characters, 139 columns
    assert.equal([...line].length, 79);
    assert.equal(columns(line), 139);
    assert.match(typedTextBlock(line, 'sh'), /Line 1 is 139 columns wide: scroll the block sideways to read it to its end/);
    assert.equal(columns('e\u0301'), 1, 'a combining mark takes no column');
    assert.doesNotMatch(typedTextBlock('echo ' + 'x'.repeat(70), 'sh'), /scroll/);
  });

  it('names a command written with letters that look like ASCII ones, and a word that mixes scripts', () => {
    assert.match(typedTextBlock('сat /etc/passwd', 'sh'), /\*\*Not what it looks like\*\*: `сat`: /);
    assert.match(
      misleadingWords('сat /etc/passwd').words[0]!.why,
      /the first character is Cyrillic с \(U\+0441\), which looks like Latin c/,
    );
    // Wholly Cyrillic, in a command's place after a pipe.
    const { words } = misleadingWords('ls | сс -o x');
    assert.equal(words.length, 1);
    assert.match(words[0]!.why, /command's place.*Cyrillic с \(U\+0441\)/);
    // Russian words as arguments read as themselves; Japanese with Latin is one writing system.
    assert.deepEqual(misleadingWords('echo привет мир; echo 日本語テキストabc').words, []);
    assert.match(misleadingWords('git push оrigin main').words[0]!.why, /mix Cyrillic and Latin/);
  });

  it('spells out a run of combining marks and characters fonts do not show', () => {
    const shown = typedTextBlock(`echo e${'\u0301'.repeat(300)} \u{1D159} \u{E000} \u{10FFFF}`, 'sh');
    assert.match(shown, /e⟨U\+0301 ×300⟩/);
    assert.match(shown, /⟨U\+1D159⟩/);
    assert.match(shown, /⟨U\+E000⟩/, 'private use');
    assert.match(shown, /⟨U\+10FFFF⟩/, 'a noncharacter');
    assert.match(typedTextBlock('echo é', 'sh'), /echo é/, 'one mark reads as itself');
  });

  it('builds the confirmation of the largest input in under 100 ms, whatever it holds', () => {
    const inputs = {
      zeroWidth: '\u200b'.repeat(MAX_INPUT_BYTES / 3),
      lines: 'a\n'.repeat(MAX_INPUT_BYTES / 2),
      wide: '一'.repeat(MAX_INPUT_BYTES / 3),
      marks: 'e' + '\u0301'.repeat(MAX_INPUT_BYTES / 2 - 1),
      cyrillicWords: 'сat '.repeat(MAX_INPUT_BYTES / 5),
      backticks: '` '.repeat(MAX_INPUT_BYTES / 2),
    };
    for (const [name, text] of Object.entries(inputs)) {
      // The best of three: the work itself, not the time another process held this shared machine's CPU.
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        typedTextBlock(text, 'sh');
        best = Math.min(best, performance.now() - started);
      }
      assert.ok(best < 100, `${name}: ${best.toFixed(1)} ms`);
    }
  });
});
