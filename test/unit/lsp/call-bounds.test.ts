// dsh_call_hierarchy answers stay within their bounds and say what they left out: call sites per
// call beyond MAX_CALL_SITES are counted in `moreCallSites`, calls per item beyond
// MAX_CALLS_PER_ITEM (or past the answer's item bound) in `moreCalls`, items never asked about
// because of the item bound are flagged `capLimit` (never shown as "no calls"), and an answer over
// the byte cap (its own fields included) falls back to the first level cut to fit, the rest
// counted; the other items a position prepared to are a few names, each cut, the rest counted in
// `moreOtherItems`; names and details in the tree are cut to their bounds. The walk
// (src/lsp/features/callHierarchy.ts) runs against a source that answers from a real file in a
// temp workspace; the shaping (src/lsp/features/shapeCalls.ts `shapeCallAnswer`) reads that file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_CALLS_PER_ITEM, walkCalls } from '../../../src/lsp/features/callHierarchy';
import { DETAIL_MAX_UNITS, NAME_MAX_UNITS } from '../../../src/lsp/features/present';
import {
  MAX_CALL_SITES,
  MAX_OTHER_ITEMS,
  shapeCallAnswer,
  shapeCallTree,
  type CallAnswerOptions,
  type ShownCall,
} from '../../../src/lsp/features/shapeCalls';
import type { CallEdge, CallHierarchyProvider, CallItem } from '../../../src/lsp/features/types';
import { splitLines } from '../../../src/lsp/position';
import { fileUriToPath } from '../../../src/lsp/uri';

const R = (line: number, character: number, length: number) => ({
  start: { line, character },
  end: { line, character: character + length },
});
const readLines = async (uri: string) => {
  try {
    return splitLines(fs.readFileSync(fileUriToPath(uri), 'utf8'));
  } catch {
    return undefined;
  }
};
const CAP = 256 * 1024;

/** Every node of a shown tree, root first. */
const nodesOf = (n: ShownCall): ShownCall[] => [n, ...(n.calls ?? []).flatMap(nodesOf)];

describe('call hierarchy answers are bounded and count what they leave out', () => {
  let dir: string;
  let fileUri: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-calls-')));
    // One file: `target` declared on line 1, then 3000 lines each calling it.
    const lines = ['export function target() {}', ...Array.from({ length: 3000 }, (_, i) => `  target(); // call ${i} ${'x'.repeat(60)}`)];
    fs.writeFileSync(path.join(dir, 'calls.ts'), `${lines.join('\n')}\n`);
    fileUri = pathToFileURL(path.join(dir, 'calls.ts')).href;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const item = (name: string, line: number): CallItem => ({
    name,
    kind: 'Function',
    uri: fileUri,
    range: R(line, 0, 20),
    selectionRange: R(line, 2, name.length),
  });
  /** A source whose every item has `callers` callers, each calling at `sites` places; counts its questions. */
  const source = (callers: number, sites: number) => {
    const asked: string[] = [];
    const provider: CallHierarchyProvider = {
      id: 'test',
      prepare: async () => [item('target', 0)],
      incoming: async (of): Promise<CallEdge[]> => {
        asked.push(of.name);
        return Array.from({ length: callers }, (_, i) => ({
          item: item(`${of.name}.c${i}`, 1 + ((i * 7) % 3000)),
          ranges: Array.from({ length: sites }, (_, k) => R(1 + ((i + k) % 3000), 2, 6)),
          rangesUri: fileUri,
        }));
      },
      outgoing: async () => [],
    };
    return { provider, asked };
  };
  const ctx = () => ({ workspaceUri: pathToFileURL(dir).href, signal: new AbortController().signal });
  /** The incoming calls of `target` walked `depth` levels from `provider`. */
  const walk = (provider: CallHierarchyProvider, depth: number) =>
    walkCalls(provider, item('target', 0), { direction: 'incoming', depth }, ctx());
  /** `walked` shaped as the tool does, within CAP unless `options` say otherwise. */
  const shape = <H extends object = Record<never, never>>(
    walked: Awaited<ReturnType<typeof walkCalls>>,
    depth: number,
    options: Partial<CallAnswerOptions> & { head?: H } = {},
  ) => shapeCallAnswer<H>(walked, { direction: 'incoming', depth, roots: [pathToFileURL(dir).href], readLines, maxBytes: CAP, ...options });

  it('a caller calling at 1000 places shows the first MAX_CALL_SITES sites and counts the rest', async () => {
    const { provider } = source(1, 1000);
    const walked = await walk(provider, 1);
    const root = await shapeCallTree(walked.root, [pathToFileURL(dir).href], readLines);
    const call = root.calls![0]!;
    assert.equal(call.callSites!.length, MAX_CALL_SITES);
    assert.equal(call.moreCallSites, 1000 - MAX_CALL_SITES);
    assert.equal(call.callSites![0]!.preview, `target(); // call 0 ${'x'.repeat(60)}`);
  });

  it('an item with 300 callers lists MAX_CALLS_PER_ITEM of them and counts the rest in moreCalls', async () => {
    const { provider } = source(300, 1);
    const walked = await walk(provider, 1);
    assert.equal(walked.root.calls!.length, MAX_CALLS_PER_ITEM);
    assert.equal(walked.root.moreCalls, 300 - MAX_CALLS_PER_ITEM);
    const answer = await shape(walked, 1);
    assert.equal(answer.root.moreCalls, 200);
    assert.match(answer.summary, /^300 direct callers of target; 100 listed/);
    assert.match(answer.note ?? '', /moreCalls/);
  });

  it('past the item bound, items are not asked about: flagged capLimit, never an empty list of calls', async () => {
    const { provider, asked } = source(60, 1);
    const walked = await walkCalls(provider, item('target', 0), { direction: 'incoming', depth: 3, maxNodes: 500 }, ctx());
    assert.equal(walked.truncated, true);
    assert.equal(walked.nodes, 500);
    const answer = await shape(walked, 3);
    const all = nodesOf(answer.root);
    assert.equal(all.length, 500);
    // Level 1 is 60 callers; each of them was asked, and the answers filled the bound at the 8th
    // (60 + 7 * 60 + 19 = 499 below the root): that one counts 41 more, the other 52 were never asked.
    assert.equal(asked.length, 1 + 8);
    const level1 = answer.root.calls!;
    assert.equal(level1[7]!.calls!.length, 19);
    assert.equal(level1[7]!.moreCalls, 41);
    for (const n of level1.slice(8)) assert.deepEqual([n.calls, n.capLimit], [undefined, true], n.name);
    for (const n of all)
      assert.ok(!(Array.isArray(n.calls) && n.calls.length === 0), `${n.name} shows no calls while its source was not asked`);
    assert.match(answer.note ?? '', /500 items/);
  });

  it('an answer over the byte cap falls back to the first level, cut to fit, the cut calls counted', async () => {
    const { provider } = source(100, 40);
    const walked = await walk(provider, 2);
    const answer = await shape(walked, 2);
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes <= CAP, `${bytes} bytes`);
    const listed = answer.root.calls!.length;
    assert.ok(listed > 0 && listed < 100, `${listed} listed`);
    assert.equal(answer.root.moreCalls, 100 - listed);
    for (const c of answer.root.calls!) assert.equal(c.calls, undefined);
    assert.match(answer.note ?? '', /256 KiB/);
  });

  it('a cap too small for even one first-level call: the calls are counted, the answer stays within the cap', async () => {
    const { provider } = source(3, 40);
    const walked = await walk(provider, 1);
    const maxBytes = 3000; // each call holds 20 call sites with 80-character previews: over 3000 bytes alone
    const answer = await shape(walked, 1, { maxBytes });
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes <= maxBytes, `${bytes} bytes`);
    assert.deepEqual(answer.root.calls, []);
    assert.equal(answer.root.moreCalls, 3);
    assert.match(answer.note ?? '', /first 0 calls \(3 more counted in moreCalls\)/);
  });

  it('a position that prepares to thousands of items with huge names: a few names, each cut, the rest counted', async () => {
    const { provider } = source(1, 1);
    const walked = await walk(provider, 1);
    const others = Array.from({ length: 5000 }, (_, i) => item(`${i}:${'n'.repeat(100_000)}`, 0));
    const answer = await shape(walked, 1, { otherItems: others });
    assert.equal(answer.otherItems?.length, MAX_OTHER_ITEMS);
    assert.equal(answer.moreOtherItems, 5000 - MAX_OTHER_ITEMS);
    assert.equal(answer.otherItemsCut, true);
    for (const [i, name] of answer.otherItems.entries()) {
      assert.equal(name.length, NAME_MAX_UNITS + 1, 'the bound and the cut marker');
      assert.ok(name.startsWith(`${i}:nnn`) && name.endsWith('…'), name.slice(0, 20));
    }
    assert.match(answer.note ?? '', /otherItems lists 10 of 5000 .*4990 more.*moreOtherItems/);
    assert.ok(Buffer.byteLength(JSON.stringify(answer)) < 8 * 1024, 'the other items take a few KiB at most');
  });

  it('a few short other items are listed whole, with no count, flag or note', async () => {
    const { provider } = source(1, 1);
    const walked = await walk(provider, 1);
    const answer = await shape(walked, 1, { otherItems: [item('a', 0), item('😀'.repeat(NAME_MAX_UNITS / 2), 0)] });
    assert.deepEqual(answer.otherItems, ['a', '😀'.repeat(NAME_MAX_UNITS / 2)]);
    assert.equal(answer.moreOtherItems, undefined);
    assert.equal(answer.otherItemsCut, undefined);
    assert.equal(answer.note, undefined);
    const none = await shape(walked, 1);
    assert.equal('otherItems' in none, false);
  });

  it('names and details of items in the tree are cut to their bounds, flagged cut', async () => {
    const long = (name: string): CallItem => ({ ...item(name, 0), detail: 'd'.repeat(1_000_000) });
    const provider: CallHierarchyProvider = {
      id: 'test',
      prepare: async () => [long('target')],
      incoming: async () => [{ item: long('x'.repeat(1_000_000)), ranges: [R(1, 2, 6)], rangesUri: fileUri }],
      outgoing: async () => [],
    };
    const walked = await walkCalls(provider, long('😀'.repeat(1000)), { direction: 'incoming', depth: 1 }, ctx());
    const answer = await shape(walked, 1);
    const call = answer.root.calls![0]!;
    assert.equal(call.name, `${'x'.repeat(NAME_MAX_UNITS)}…`);
    assert.equal(call.detail, `${'d'.repeat(DETAIL_MAX_UNITS)}…`);
    assert.equal(call.cut, true);
    assert.equal(answer.root.name, `${'😀'.repeat(NAME_MAX_UNITS / 2)}…`, 'a surrogate pair is never split');
    assert.equal(answer.root.cut, true);
    assert.match(answer.summary, /^1 direct caller of 😀😀/);
    assert.match(answer.note ?? '', /cut: true/);
    const short = await shape(await walk(source(1, 1).provider, 1), 1);
    assert.equal(short.root.cut, undefined);
    assert.equal(short.root.calls![0]!.cut, undefined);
  });

  it("the answer's own fields count in its bound, and the note names the cap the answer was held to", async () => {
    const { provider } = source(100, 40);
    const walked = await walk(provider, 2);
    // Fields the tool puts before the tree: 20 KiB of them, far over a fixed allowance.
    const head = { file: 'f'.repeat(20 * 1024), provider: 'test' };
    const answer = await shape(walked, 2, { head });
    assert.equal(answer.file, head.file);
    assert.deepEqual(Object.keys(answer).slice(0, 2), ['file', 'provider'], 'the head comes first');
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes <= CAP, `${bytes} bytes`);
    assert.ok(answer.root.calls!.length > 0);
    assert.match(answer.note ?? '', /larger than the 256 KiB tool result cap/);
    const odd = await shape(walked, 2, { maxBytes: 100_000 });
    assert.match(
      odd.note ?? '',
      /larger than the 100000 bytes tool result cap/,
      'a cap that is not whole KiB is named in bytes, not rounded',
    );
  });
});
