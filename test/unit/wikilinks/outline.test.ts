// A note's outline (src/lsp/wikilinks/features.ts outlineOf) in time linear in its headings and
// block anchors, yielding every few ms: each block anchor goes into the innermost section holding
// it, found in one sweep, not by scanning every heading for every anchor (20 000 headings and
// 20 000 anchors took 4·10^8 steps, ~6 s, on the calling thread). The nesting is checked against
// the scan it replaces.
import * as assert from 'node:assert/strict';
import { outlineOf } from '../../../src/lsp/wikilinks/features';
import type { IndexedNote } from '../../../src/lsp/wikilinks/noteCatalog';
import { parseNote } from '../../../src/lsp/wikilinks/parse';
import type { SymbolItem } from '../../../src/lsp/features/types';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';

function note(text: string): IndexedNote {
  const parsed = parseNote(text, { limits: { maxChars: Infinity, maxItems: Infinity } });
  return { uri: 'file:///v/n.md', relPath: 'n.md', dir: '', name: 'n', kind: 'note', parsed, links: [] } as unknown as IndexedNote;
}

/** The outline as text: depth, name and line of each entry, pre-order. */
const lines = (items: readonly SymbolItem[], depth = 0): string[] =>
  items.flatMap((s) => [`${depth} ${s.name} ${s.selectionRange.start.line}`, ...lines(s.children ?? [], depth + 1)]);

describe('wiki links: outlines of notes with many headings and block anchors', function () {
  this.timeout(120_000);

  it('block anchors sit in the innermost section that holds their line, before the first heading at the top', async () => {
    const text = [
      'text ^top',
      '# A',
      'a ^a1',
      '## B',
      'b ^b1',
      '### C',
      'c ^c1',
      '## D',
      'd ^d1',
      '# E',
      '###### F',
      'f ^f1',
      'e? no: still F ^f2',
    ].join('\n');
    assert.deepEqual(lines(await outlineOf(note(text))), [
      '0 ^top 0',
      '0 A 1',
      '1 ^a1 2',
      '1 B 3',
      '2 ^b1 4',
      '2 C 5',
      '3 ^c1 6',
      '1 D 7',
      '2 ^d1 8',
      '0 E 9',
      '1 F 10',
      '2 ^f1 11',
      '2 ^f2 12',
    ]);
  });

  it('random notes: every anchor lands where a scan of every section for the innermost holder puts it', async () => {
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 30; round++) {
      const text: string[] = [];
      for (let i = 0; i < 60; i++) text.push(rand(3) === 0 ? `${'#'.repeat(1 + rand(6))} h${i}` : rand(2) === 0 ? `x ^b${i}` : 'plain');
      const n = note(text.join('\n'));
      // The oracle: sections from the headings, the innermost holder by scanning them all.
      const hs = n.parsed.headings;
      const ends = hs.map((h, i) => {
        const k = hs.findIndex((g, j) => j > i && g.level <= h.level);
        return k < 0 ? Math.max(0, n.parsed.lineCount - 1) : hs[k]!.line - 1;
      });
      const expected = new Map(
        n.parsed.blocks.map((b) => {
          let holder: string | undefined;
          hs.forEach((h, i) => {
            if (h.line <= b.line && b.line <= ends[i]!) holder = h.text;
          });
          return [`^${b.id}`, holder];
        }),
      );
      const actual = new Map<string, string | undefined>();
      const walk = (items: readonly SymbolItem[], parent: string | undefined) =>
        items.forEach((s) => {
          if (s.kind === 'Key') actual.set(s.name, parent);
          walk(s.children ?? [], s.name);
        });
      walk(await outlineOf(n), undefined);
      assert.deepEqual(actual, expected, `round ${round}:\n${text.join('\n')}`);
    }
  });

  it('20 000 headings of mixed levels and 20 000 block anchors: the outline nests every anchor, and the thread is not held long', async () => {
    const out: string[] = [];
    for (let i = 0; i < 20_000; i++) out.push(`${'#'.repeat(1 + (i % 3))} h${i}`, `line ^b${i}`);
    const n = note(out.join('\n'));
    const run = await withLagProbe(() => outlineOf(n));
    const all = lines(run.result);
    assert.equal(all.length, 40_000);
    // h0 (#) holds b0 and h1 (##); h1 holds b1 and h2 (###); h2 holds b2.
    assert.deepEqual(all.slice(0, 6), ['0 h0 0', '1 ^b0 1', '1 h1 2', '2 ^b1 3', '2 h2 4', '3 ^b2 5']);
    assert.ok(run.maxHeldMs < 800, `the outline: the thread was ${heldText(run)} (a hang detector: limit 800)`);
  });
});
