// Long lists on the extension host thread are sorted and shaped in slices: slicedSort gives what
// Array.prototype.sort gives (stable), and dsh_symbols' shaping of 100 000 workspace symbols (a
// search over a big vault) never holds the thread long (a hang detector with a wide margin: it
// held the thread 1.6-4 s before it yielded).
import * as assert from 'node:assert/strict';
import { slicedSort, RUN_ITEMS } from '../../src/lsp/slicedSort';
import { shapeWorkspaceSymbols } from '../../src/lsp/features/present';
import type { SymbolItem } from '../../src/lsp/features/types';
import { heldText, withLagProbe } from '../helpers/eventLoopLag';

const HOLD_LIMIT_MS = 800;

describe('sorting and shaping long lists without holding the thread', function () {
  this.timeout(120_000);

  it('slicedSort sorts like Array.prototype.sort, stable, for lengths around its run size', async () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const n of [0, 1, 5, RUN_ITEMS - 1, RUN_ITEMS, RUN_ITEMS + 1, 3 * RUN_ITEMS + 17, 10_000]) {
      const items = Array.from({ length: n }, (_, i) => ({ key: Math.floor(rand() * 50), i }));
      const cmp = (a: { key: number }, b: { key: number }) => a.key - b.key;
      const sorted = await slicedSort(items, cmp);
      assert.deepEqual(sorted, [...items].sort(cmp), `n = ${n}`);
      assert.equal(items.length, n, 'the input is left as it was');
    }
  });

  it('shaping 100 000 workspace symbols: ranked and paged as before, the thread never held long', async () => {
    const n = 100_000;
    const scored = Array.from({ length: n }, (_, i) => {
      const uri = i % 10 === 0 ? `file:///ws/node_modules/p/note-${i}.md` : `file:///ws/area-${i % 100}/note-${i}.md`;
      const symbol: SymbolItem = { name: `Note ${i}`, kind: 'String', uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } }, selectionRange: { start: { line: 0, character: 2 }, end: { line: 0, character: 9 } } };
      return { symbol, score: (i * 7919) % 1000 };
    });
    const run = await withLagProbe(() => shapeWorkspaceSymbols([...scored, scored[1]!], { roots: ['file:///ws'], offset: 0, limit: 3, readLines: async () => undefined }));
    const shaped = run.result;
    assert.equal(shaped.total, n - n / 10, 'the duplicate is dropped, node_modules folded');
    assert.equal(shaped.collapsed?.nodeModules?.count, n / 10);
    const best = scored.filter((x) => !x.symbol.uri.includes('node_modules') && x.score === 999).map((x) => x.symbol.uri.replace('file:///ws/', '')).sort();
    assert.deepEqual(shaped.symbols.map((s) => s.path), best.slice(0, 3));
    assert.equal(shaped.files.length, n - n / 10);
    assert.ok(run.maxHeldMs < HOLD_LIMIT_MS, `the thread was ${heldText(run)} (limit ${HOLD_LIMIT_MS})`);
  });
});
