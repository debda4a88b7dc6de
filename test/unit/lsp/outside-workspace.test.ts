// Result locations outside the workspace are left out of navigation answers, judged by real path
// (src/lsp/outsideWorkspace.ts, src/lsp/features/callsInside.ts): on real folders in temp
// directories, with a folder symlink in the workspace that leads outside.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { keepInside, outsideLeftOut, realPathJudge } from '../../../src/lsp/outsideWorkspace';
import { callItemsInside, keepCallsInside } from '../../../src/lsp/features/callsInside';
import type { CallTreeNode } from '../../../src/lsp/features/shapeCalls';
import type { CallItem } from '../../../src/lsp/features/types';
import { pathToFileUri } from '../../../src/lsp/uri';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

describe('locations outside the workspace are left out, judged by real path', () => {
  let base: string;
  let ws: string;
  let outside: string;
  let toolchain: string;
  const uri = (p: string) => pathToFileUri(p);

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-outside-')));
    ws = path.join(base, 'ws');
    outside = path.join(base, 'elsewhere');
    toolchain = path.join(base, 'vscode/extensions/node_modules/typescript/lib');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(toolchain, { recursive: true });
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(outside, 'secret.ts'), 'export function secretName() {}\n');
    fs.writeFileSync(path.join(toolchain, 'lib.es5.d.ts'), 'interface Array<T> {}\n');
    fs.symlinkSync(outside, path.join(ws, 'notes/outdir'));
    fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(ws, 'src/linked.ts'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('inside: a workspace file; outside: a file through a folder link, a file link, an absolute path, ../', async () => {
    const judge = realPathJudge([ws]);
    assert.equal(await judge(uri(path.join(ws, 'src/a.ts'))), true);
    assert.equal(await judge(uri(path.join(ws, 'notes/outdir/secret.ts'))), false, 'through the folder link');
    assert.equal(await judge(uri(path.join(ws, 'src/linked.ts'))), false, 'through the file link');
    assert.equal(await judge(uri(path.join(outside, 'secret.ts'))), false);
    assert.equal(await judge(`file://${ws}/src/../../elsewhere/secret.ts`), false);
  });

  it('a missing file is judged by where its nearest existing folder leads', async () => {
    const judge = realPathJudge([ws]);
    assert.equal(await judge(uri(path.join(ws, 'notes/outdir/gone/deleted.ts'))), false);
    assert.equal(await judge(uri(path.join(ws, 'src/not-yet.ts'))), true);
  });

  it('the toolchain folders count as inside; other schemes as the caller says (default outside); a malformed URI is outside', async () => {
    assert.equal(await realPathJudge([ws])(uri(path.join(toolchain, 'lib.es5.d.ts'))), false);
    assert.equal(await realPathJudge([ws], { alsoInside: [toolchain] })(uri(path.join(toolchain, 'lib.es5.d.ts'))), true);
    assert.equal(await realPathJudge([ws])('untitled:Untitled-1'), false);
    assert.equal(await realPathJudge([ws], { otherScheme: (u) => u.startsWith('vscode-vfs://ws/') })('vscode-vfs://ws/a.ts'), true);
    assert.equal(await realPathJudge([ws])('not a uri'), false);
  });

  it('keepInside keeps the inside items in order and counts the rest', async () => {
    const items = [
      { name: 'a', uri: uri(path.join(ws, 'src/a.ts')) },
      { name: 'secretName', uri: uri(path.join(ws, 'notes/outdir/secret.ts')) },
      { name: 'b', uri: uri(path.join(ws, 'src/a.ts')) },
      { name: 'secretName', uri: uri(path.join(outside, 'secret.ts')) },
    ];
    const { kept, leftOut } = await keepInside(items, (i) => i.uri, realPathJudge([ws]));
    assert.deepEqual(
      kept.map((i) => i.name),
      ['a', 'b'],
    );
    assert.equal(leftOut, 2);
  });

  it('keepInside yields to the event loop on a large answer', async () => {
    const items = Array.from({ length: 20_000 }, (_, n) => ({ uri: uri(path.join(n % 2 ? outside : ws, `f${n % 50}.ts`)) }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const { kept, leftOut } = await keepInside(items, (i) => i.uri, realPathJudge([ws]));
      assert.equal(kept.length, 10_000);
      assert.equal(leftOut, 10_000);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks > 0, 'timers ran while it worked');
  });

  it('the answer says how many were left out and why, in a trusted window and in Restricted Mode; nothing for none', () => {
    assert.equal(outsideLeftOut(0, 'dsh_symbols', false), undefined);
    const trusted = outsideLeftOut(2, 'dsh_symbols', false)!;
    assert.equal(trusted.leftOut, 2);
    assert.match(
      trusted.why,
      /2 results in files outside the workspace folders \(judged by real path: symbolic links resolved\) left out: .*user's confirmation/,
    );
    assert.match(
      outsideLeftOut(1, 'dsh_lsp', true)!.why,
      /1 result in files outside .*in Restricted Mode dsh_lsp shows nothing from outside the workspace/,
    );
  });

  it('a call tree loses the calls outside (and what is below them); the other prepared items too', async () => {
    const item = (name: string, file: string): CallItem => ({ name, kind: 'Function', uri: uri(file), range, selectionRange: range });
    const inA = path.join(ws, 'src/a.ts');
    const viaLink = path.join(ws, 'notes/outdir/secret.ts');
    const root: CallTreeNode = {
      item: item('root', inA),
      calls: [
        {
          item: item('insideCaller', inA),
          sites: { uri: uri(inA), ranges: [range] },
          calls: [{ item: item('deeper', inA), sites: { uri: uri(inA), ranges: [range] } }],
        },
        {
          item: item('secretCaller', viaLink),
          sites: { uri: uri(viaLink), ranges: [range] },
          calls: [{ item: item('belowSecret', inA), sites: { uri: uri(inA), ranges: [range] } }],
        },
        { item: item('siteOutside', inA), sites: { uri: uri(path.join(outside, 'secret.ts')), ranges: [range] } },
      ],
    };
    const { walked, leftOut } = await keepCallsInside(
      { root, nodes: 6, truncated: false, maxNodes: 500, maxCallsPerItem: 100 },
      realPathJudge([ws]),
    );
    assert.deepEqual(
      walked.root.calls!.map((c) => c.item.name),
      ['insideCaller'],
    );
    assert.deepEqual(
      walked.root.calls![0]!.calls!.map((c) => c.item.name),
      ['deeper'],
    );
    assert.equal(walked.nodes, 3);
    assert.equal(leftOut, 2);
    const others = await callItemsInside([item('x', inA), item('y', viaLink)], realPathJudge([ws]));
    assert.deepEqual(
      others.kept.map((i) => i.name),
      ['x'],
    );
    assert.equal(others.leftOut, 1);
  });
});
