// dsh_call_hierarchy: the walk lists at most 500 items, but a source answers every caller of a
// function at once (a logging helper has tens of thousands in a big repository), and a caller may
// call it at any number of sites (a generated table of registrations). Converting the edges and
// shaping the call sites give what the single passes gave, and never hold the extension host
// thread long.
import * as assert from 'node:assert/strict';
import { toCallEdges, toCallItem } from '../../../src/lsp/features/convert';
import { cachedLines, toModelRange, type ReadLines } from '../../../src/lsp/features/present';
import { MAX_CALL_SITES, shapeCallTree, type CallTreeNode, type ShownCall } from '../../../src/lsp/features/shapeCalls';
import type { CallEdge } from '../../../src/lsp/features/types';
import { placeUri } from '../../../src/lsp/placeUri';
import { preview } from '../../../src/lsp/previewLine';
import { isRange, plainRange } from '../../../src/lsp/rangeLike';
import { isLspError } from '../../../src/lsp/types';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';

// The passes as they were, one synchronous pass each: the references.
function referenceEdges(raw: unknown, direction: 'incoming' | 'outgoing', askedUri: string, base: 0 | 1): CallEdge[] {
  const items = Array.isArray(raw) ? raw : [];
  const out: CallEdge[] = [];
  for (const it of items) {
    const o = it as { from?: unknown; to?: unknown; fromRanges?: unknown };
    const item = toCallItem(direction === 'incoming' ? o?.from : o?.to, base);
    if (!item) continue;
    const ranges = Array.isArray(o.fromRanges) ? o.fromRanges.filter(isRange).map(plainRange) : [];
    out.push({ item, ranges, rangesUri: direction === 'incoming' ? item.uri : askedUri });
  }
  return out;
}

async function referenceTree(node: CallTreeNode, roots: readonly string[], readLines: ReadLines): Promise<ShownCall> {
  const lines = cachedLines(readLines);
  const show = async (n: CallTreeNode): Promise<ShownCall> => {
    const place = placeUri(roots, n.item.uri);
    const itemLines = await lines(n.item.uri);
    const siteLines = n.sites ? await lines(n.sites.uri) : undefined;
    const sitePath = n.sites ? placeUri(roots, n.sites.uri).path : '';
    return {
      name: n.item.name,
      kind: n.item.kind,
      ...(n.item.detail ? { detail: n.item.detail } : {}),
      path: place.path,
      ...toModelRange(n.item.selectionRange, itemLines),
      ...(place.where === 'external' ? { external: true as const } : {}),
      ...(place.where === 'nodeModules' ? { nodeModules: true as const } : {}),
      ...(n.sites
        ? {
            callSites: n.sites.ranges.slice(0, MAX_CALL_SITES).map((r) => ({
              path: sitePath,
              ...toModelRange(r, siteLines),
              preview: siteLines?.[r.start.line] !== undefined ? preview(siteLines[r.start.line]!) : '',
            })),
          }
        : {}),
      // Call sites past the bound are counted, not shown.
      ...(n.sites && n.sites.ranges.length > MAX_CALL_SITES ? { moreCallSites: n.sites.ranges.length - MAX_CALL_SITES } : {}),
      ...(n.cycle ? { cycle: true as const } : {}),
      ...(n.seenAbove ? { seenAbove: true as const } : {}),
      ...(n.depthLimit ? { depthLimit: true as const } : {}),
      ...(n.calls ? { calls: await Promise.all(n.calls.map(show)) } : {}),
    };
  };
  return show(node);
}

const R = (l: number, c: number, len = 3) => ({ start: { line: l, character: c }, end: { line: l, character: c + len } });
const ROOTS = ['file:///ws'];

/** `n` incoming calls as VS Code answers them (kinds from 0; a URI object), some of them malformed. */
function rawIncoming(n: number, sitesEach: number): unknown[] {
  return Array.from({ length: n }, (_, i) => {
    if (i % 97 === 13) return { from: { name: 'broken' }, fromRanges: [R(0, 0)] };
    const uri =
      i % 50 === 7 ? `file:///ws/node_modules/p/f${i}.js` : i % 61 === 9 ? `file:///elsewhere/f${i}.ts` : `file:///ws/src/f${i % 3001}.ts`;
    return {
      from: {
        name: `caller${i}`,
        kind: i % 3 === 0 ? 5 : 11,
        ...(i % 4 === 0 ? { detail: 'd' } : {}),
        uri: { toString: () => uri },
        range: R(i, 0, 40),
        ...(i % 5 === 0 ? {} : { selectionRange: R(i, 9, 7) }),
      },
      ...(i % 89 === 3
        ? {}
        : { fromRanges: [...Array.from({ length: sitesEach }, (_, k) => R(i + k, 4 + k)), ...(i % 7 === 0 ? [{ start: 1 }] : [])] }),
    };
  });
}

/** A document's lines: calls at column 5, some long, one with an astral character before the call. */
const fileLines = (n: number): string[] =>
  Array.from({ length: n }, (_, i) =>
    i % 10 === 3
      ? `  😀 register(h${i}, { name: 'h${i}' });`
      : `    register(handler${i}, { name: 'h${i}', options: [${'1, '.repeat(i % 40)}] }); // entry ${i}`,
  );

// The single passes held the thread 1.7 s at once on a busy 2-CPU machine (alone: converting
// 200 000 incoming calls 0.69-0.74 s, shaping 200 000 call sites in one caller 0.34-0.46 s); in
// slices the longest hold was 0.02-0.13 s, and up to 0.45 s when a garbage collection of the heap
// ran while other processes kept both CPUs busy (--trace-gc: a 0.31 s mark-compact in a 0.28 s
// hold). A hang detector with a wide margin for such pauses, not a timing goal.
const HOLD_LIMIT_MS = 600;

describe('call hierarchy answers of any size without holding the thread', function () {
  this.timeout(300_000);

  it('small answers: edges converted and trees shaped as before', async () => {
    const raw = rawIncoming(300, 3);
    for (const base of [0, 1] as const) {
      assert.deepEqual(
        await toCallEdges(raw, 'incoming', 'file:///ws/asked.ts', base),
        referenceEdges(raw, 'incoming', 'file:///ws/asked.ts', base),
      );
      const outgoing = raw.map((r) => ({ ...(r as object), to: (r as { from: unknown }).from, from: undefined }));
      assert.deepEqual(
        await toCallEdges(outgoing, 'outgoing', 'file:///ws/asked.ts', base),
        referenceEdges(outgoing, 'outgoing', 'file:///ws/asked.ts', base),
      );
    }
    assert.deepEqual(await toCallEdges(undefined, 'incoming', 'file:///ws/a.ts', 0), []);
    const edges = await toCallEdges(raw, 'incoming', 'file:///ws/asked.ts', 0);
    const leaf = (e: CallEdge, flags: Partial<Pick<CallTreeNode, 'cycle' | 'seenAbove' | 'depthLimit'>> = {}): CallTreeNode => ({
      item: e.item,
      sites: { uri: e.rangesUri, ranges: e.ranges },
      ...flags,
    });
    const tree: CallTreeNode = {
      item: edges[0]!.item,
      calls: [
        {
          ...leaf(edges[1]!),
          calls: [leaf(edges[2]!, { cycle: true }), leaf(edges[3]!, { depthLimit: true }), { ...leaf(edges[4]!), calls: [] }],
        },
        leaf(edges[5]!, { seenAbove: true }),
        ...edges.slice(6, 120).map((e) => leaf(e)),
      ],
    };
    const readLines = async (uri: string) => (uri.includes('f1') ? undefined : fileLines(400));
    assert.deepEqual(await shapeCallTree(tree, ROOTS, readLines), await referenceTree(tree, ROOTS, readLines));
  });

  it('200 000 incoming calls and 200 000 call sites in one caller: converted and shaped as before, the thread never held long', async () => {
    const raw = rawIncoming(200_000, 1);
    const lines = fileLines(200_000);
    const readLines = async () => lines;
    const sites = { uri: 'file:///ws/big.ts', ranges: lines.map((_, i) => R(i, 4, 8)) };
    const run = await withLagProbe(async () => {
      const edges = await toCallEdges(raw, 'incoming', 'file:///ws/asked.ts', 0);
      const tree: CallTreeNode = {
        item: edges[0]!.item,
        calls: [
          { item: edges[1]!.item, sites },
          ...edges.slice(2, 499).map((e) => ({ item: e.item, sites: { uri: e.rangesUri, ranges: e.ranges }, depthLimit: true })),
        ],
      };
      return { edges, tree, shown: await shapeCallTree(tree, ROOTS, readLines) };
    });
    const { edges, tree, shown } = run.result;
    assert.deepEqual(edges, referenceEdges(raw, 'incoming', 'file:///ws/asked.ts', 0));
    assert.deepEqual(shown, await referenceTree(tree, ROOTS, readLines));
    assert.deepEqual([shown.calls?.[0]?.callSites?.length, shown.calls?.[0]?.moreCallSites], [MAX_CALL_SITES, 200_000 - MAX_CALL_SITES]);
    assert.ok(run.maxHeldMs < HOLD_LIMIT_MS, `the thread was ${heldText(run)} (limit ${HOLD_LIMIT_MS})`);
  });

  it('a signal that aborts stops the conversion and the shaping with cancelled', async () => {
    const raw = rawIncoming(50_000, 2);
    const edges = await toCallEdges(raw, 'incoming', 'file:///ws/asked.ts', 0);
    // Call sites past MAX_CALL_SITES are counted, not shaped: the long pass is over many calls.
    const tree: CallTreeNode = {
      item: edges[0]!.item,
      calls: edges.slice(1).map((e) => ({
        item: e.item,
        sites: { uri: 'file:///ws/big.ts', ranges: Array.from({ length: MAX_CALL_SITES }, (_, i) => R(i, 4)) },
      })),
    };
    const lines = fileLines(100_000);
    const passes = [
      (signal: AbortSignal) => toCallEdges(raw, 'incoming', 'file:///ws/asked.ts', 0, undefined, signal),
      (signal: AbortSignal) => shapeCallTree(tree, ROOTS, async () => lines, signal),
    ];
    for (const pass of passes) {
      const ac = new AbortController();
      const p = pass(ac.signal);
      setImmediate(() => ac.abort());
      await assert.rejects(p, (e: unknown) => isLspError(e) && e.code === 'cancelled');
    }
  });
});
