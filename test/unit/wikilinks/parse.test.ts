// The wiki-link parser (src/lsp/wikilinks/parse.ts): grammar, code regions found through
// markdown-it, headings, block anchors, front matter. Positions are LSP (0-based, UTF-16).
import * as assert from 'node:assert/strict';
import { parseNote } from '../../../src/lsp/wikilinks/parse';
import { Vault } from '../../helpers/wikiVault';

const targets = (text: string) => parseNote(text).links.map((l) => l.raw);

describe('wiki links: parser', () => {
  describe('grammar', () => {
    it('reads target, anchor, alias and embed', () => {
      const links = parseNote(
        '[[a]] [[b|Bee]] [[c#Head ing]] [[d#^blk-1]] [[#Local]] ![[e]] [[f.md]] [[dir/g]] [[h#^id|alias]] ![[img.png|300|left]]\n',
      ).links;
      assert.deepEqual(
        links.map((l) => ({ t: l.target, a: l.anchor, al: l.alias, e: l.embed })),
        [
          { t: 'a', a: undefined, al: undefined, e: false },
          { t: 'b', a: undefined, al: 'Bee', e: false },
          { t: 'c', a: { kind: 'heading', text: 'Head ing' }, al: undefined, e: false },
          { t: 'd', a: { kind: 'block', id: 'blk-1' }, al: undefined, e: false },
          { t: '', a: { kind: 'heading', text: 'Local' }, al: undefined, e: false },
          { t: 'e', a: undefined, al: undefined, e: true },
          { t: 'f.md', a: undefined, al: undefined, e: false },
          { t: 'dir/g', a: undefined, al: undefined, e: false },
          { t: 'h', a: { kind: 'block', id: 'id' }, al: 'alias', e: false },
          { t: 'img.png', a: undefined, al: '300|left', e: true },
        ],
      );
    });

    it('ranges: the whole link from `!` or `[[`, the target text trimmed and without the `\\` of `\\|`', () => {
      const [plain, embed, spaced, escaped] = parseNote('x [[ a b |c]] ![[e]] [[  sp  ]] [[B\\|乙]]\n').links;
      assert.deepEqual(plain!.range, { start: { line: 0, character: 2 }, end: { line: 0, character: 13 } });
      assert.deepEqual(plain!.targetRange, { start: { line: 0, character: 5 }, end: { line: 0, character: 8 } });
      assert.equal(plain!.target, 'a b');
      assert.deepEqual(embed!.range.start, { line: 0, character: 14 });
      assert.deepEqual(spaced!.targetRange, { start: { line: 0, character: 25 }, end: { line: 0, character: 27 } });
      assert.equal(escaped!.target, 'B');
      assert.deepEqual(escaped!.targetRange, { start: { line: 0, character: 34 }, end: { line: 0, character: 35 } });
    });

    it('not links: single brackets, empty targets, escaped brackets, links across lines', () => {
      assert.deepEqual(targets('[a] [^1] [x](y) [[]] [[|alias]] [[#]] \\[[esc]] [[open\nclose]]\n'), []);
      assert.deepEqual(targets('\\![[plain]]\n'), ['[[plain]]'], 'an escaped ! makes a plain link');
      assert.deepEqual(targets('[[[x]]]\n'), ['[[x]]']);
      assert.deepEqual(targets('\\\\[[x]]\n'), ['[[x]]'], 'an escaped backslash does not escape the bracket');
    });

    it('alias-first reads [[alias|target]]', () => {
      const [l] = parseNote('[[My Label|proj.todo]]\n', { aliasOrder: 'alias-first' }).links;
      assert.deepEqual([l!.target, l!.alias], ['proj.todo', 'My Label']);
      assert.deepEqual(l!.targetRange, { start: { line: 0, character: 11 }, end: { line: 0, character: 20 } });
    });
  });

  describe('code regions (markdown-it)', () => {
    it('fences with ``` and ~~~, longer fences, fences in lists and blockquotes', () => {
      const text = [
        '```',
        '[[f1]]',
        '```',
        '~~~js',
        '[[f2]]',
        '~~~',
        '````md',
        '```',
        '[[f3]]',
        '```',
        '````',
        '- item [[in-list]]',
        '',
        '  ```',
        '  [[f4]]',
        '  ```',
        '> ```',
        '> [[f5]]',
        '> ```',
        '> quoted [[q]]',
        '',
      ].join('\n');
      assert.deepEqual(targets(text), ['[[in-list]]', '[[q]]']);
      assert.deepEqual(parseNote(text).ignored.filter((r) => r.kind === 'fence').length, 5);
    });

    it('an unclosed fence runs to the end of the document (CommonMark)', () => {
      assert.deepEqual(targets('[[before]]\n```\n[[inside]]\n'), ['[[before]]']);
    });

    it('indented code is code, but indented list continuation is not', () => {
      assert.deepEqual(targets('para\n\n    [[code]]\n\n- item\n\n    [[continuation]]\n'), ['[[continuation]]']);
      assert.deepEqual(
        parseNote('para\n\n    [[code]]\n').ignored.map((r) => r.kind),
        ['indented-code'],
      );
    });

    it('inline code: same-length backtick strings, multi-line spans, unclosed backticks are literal, escaped backticks', () => {
      assert.deepEqual(targets('`[[a]]` ``x ` [[b]]`` [[c]]\n'), ['[[c]]']);
      assert.deepEqual(
        targets('start `code\n[[span]] more` [[after]]\n'),
        ['[[after]]'],
        'a code span crosses a line break inside a paragraph',
      );
      assert.deepEqual(targets('a ` lonely [[x]]\n\nb ` [[y]]\n'), ['[[x]]', '[[y]]'], 'a code span never crosses paragraphs');
      assert.deepEqual(targets('\\`not code [[x]]`\n'), ['[[x]]'], 'an escaped backtick opens nothing');
      assert.deepEqual(targets('``` [[x]] ``\n'), ['[[x]]'], 'no closing run of the same length');
    });

    it('HTML comments: blocks, inline, multi-line; a link after an inline comment counts', () => {
      assert.deepEqual(targets('<!-- [[a]] -->\n\n<!--\n[[b]]\n-->\n\ntext <!-- [[c]]\n[[d]] --> [[e]]\n'), ['[[e]]']);
      assert.deepEqual(targets('<div>\n[[in-html]] <!-- [[hidden]] -->\n</div>\n'), ['[[in-html]]']);
    });

    it('tables: links in cells count, inline code in cells does not', () => {
      assert.deepEqual(targets('| a | b |\n|---|---|\n| [[x]] | `[[y]]` |\n| [[z\\|Z]] | ok |\n'), ['[[x]]', '[[z\\|Z]]']);
    });
  });

  describe('headings, block anchors, front matter', () => {
    it('ATX and setext headings, with a trailing ^id removed from the text', () => {
      const p = parseNote('# One #\n\nTwo\n===\n\n## Three ^t3\n\n```\n# not a heading\n```\n');
      assert.deepEqual(
        p.headings.map((h) => [h.level, h.text, h.line]),
        [
          [1, 'One', 0],
          [1, 'Two', 2],
          [2, 'Three', 5],
        ],
      );
      assert.equal(p.title, 'One');
      assert.deepEqual(
        p.blocks.map((b) => [b.id, b.line]),
        [['t3', 5]],
      );
    });

    it('block anchors: after text (the paragraph), alone after a list, blockquote or fence (that block); not in code', () => {
      const text = [
        'First line', //        0
        'last line ^para', //   1
        '',
        '- one', //             3
        '- two',
        '^list', //             5
        '',
        '> q1', //              7
        '> ^quote', //          8
        '',
        '```', //              10
        'code ^not-a-block',
        '```',
        '^fence', //           13
        '',
        '`x ^inline`', //      15
      ].join('\n');
      const p = parseNote(text);
      assert.deepEqual(
        p.blocks.map((b) => [b.id, b.line, b.range.start.line]),
        [
          ['para', 1, 0],
          ['list', 5, 3],
          ['quote', 8, 7],
          ['fence', 13, 10],
        ],
      );
    });

    it('front matter: its title wins, it makes no heading, and links in it count (Obsidian properties)', () => {
      const p = parseNote('---\ntitle: \'Quoted Title\'\nrelated: "[[other]]"\n---\n\n# H1\n');
      assert.equal(p.title, 'Quoted Title');
      assert.deepEqual(p.frontMatter, { startLine: 0, endLine: 3 });
      assert.deepEqual(
        p.headings.map((h) => h.text),
        ['H1'],
      );
      assert.deepEqual(
        p.links.map((l) => l.target),
        ['other'],
      );
      assert.equal(parseNote('---\nno closing\n').frontMatter, undefined);
    });

    it('CRLF and lone CR line endings count lines like LSP', () => {
      const p = parseNote('a\r\n```\r\n[[no]]\r\n```\r\n[[yes]]\r[[also]]');
      assert.deepEqual(
        p.links.map((l) => [l.target, l.range.start.line]),
        [
          ['yes', 4],
          ['also', 5],
        ],
      );
      assert.equal(p.lineCount, 6);
    });
  });
});

describe('wiki links: hostile notes', () => {
  // A vault is workspace content anyone may have written. Each case took seconds (minutes at the
  // 8 MiB read cap) in a scan quadratic in a run of spaces; the bound only detects such a hang.
  const spaces = ' '.repeat(100_000);
  const parsedWithin = (text: string, ms: number) => {
    const started = Date.now();
    const parsed = parseNote(text);
    const took = Date.now() - started;
    assert.ok(took < ms, `parsing took ${took} ms`);
    return parsed;
  };

  it('a front matter title with a long run of spaces inside parses at once, trimmed', () => {
    assert.equal(parsedWithin(`---\ntitle: a${spaces}b \n---\n`, 1000).title, `a${spaces}b`);
  });

  it('a heading with a long run of spaces inside parses at once; a trailing ^id is still dropped', () => {
    assert.equal(parsedWithin(`# a${spaces}b\n`, 1000).headings[0]!.text, `a${spaces}b`);
    assert.equal(parsedWithin(`# a${spaces}b ^id-1\n`, 1000).headings[0]!.text, `a${spaces}b`);
    assert.equal(parseNote('# a^id\n').headings[0]!.text, 'a^id', 'no space before ^: not a block id');
  });

  it('a note with 150 000 block anchors parses in linear time, each anchor naming its paragraph', function () {
    this.timeout(120_000);
    // Each anchor once searched every block of the note: about a minute here, hours at the read cap.
    const parsed = parsedWithin('p\nq ^a\n\n'.repeat(150_000), 10_000);
    assert.equal(parsed.blocks.length, 150_000);
    assert.deepEqual(parsed.blocks.at(-1)!.range.start, { line: 3 * 149_999, character: 0 });
  });

  it('a hover on a link to a note whose lines hold long runs of spaces answers at once', async () => {
    const v = Vault.create({ 'a.md': '[[b]]\n', 'b.md': `x${spaces}y\n` });
    try {
      const started = Date.now();
      const r = await v.query('hover', 'a.md', 1, 3);
      const took = Date.now() - started;
      assert.equal(r.kind, 'hover');
      assert.ok(took < 2000, `the hover took ${took} ms`);
    } finally {
      v.cleanup();
    }
  });
});
