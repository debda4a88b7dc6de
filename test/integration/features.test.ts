/**
 * `dsh_symbols`, `dsh_diagnostics` and `dsh_call_hierarchy` through `vscode.lm.invokeTool`, as an
 * agent calls them, in a real extension host running the installed VSIX: the TypeScript fixture
 * (test/fixtures/workspace/ts, answered by the built-in TypeScript extension) and the wiki vault
 * (test/fixtures/workspace/vault, answered by md-links), the wiki problems in the Problems panel,
 * bad input, and the palette command showing the new answers.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';

interface Sym {
  name: string;
  kind: string;
  detail?: string;
  containerName?: string;
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  children?: Sym[];
}
interface Diag {
  path: string;
  line: number;
  column: number;
  severity: string;
  message: string;
  source?: string;
  code?: string;
}
interface Call {
  name: string;
  kind: string;
  path: string;
  line: number;
  column: number;
  callSites?: { path: string; line: number; column: number; preview: string }[];
  calls?: Call[];
  cycle?: boolean;
  seenAbove?: boolean;
  depthLimit?: boolean;
}
interface Answer {
  mode?: string;
  provider?: string;
  summary: string;
  total: number;
  shown: number;
  nextOffset?: number;
  symbols?: Sym[];
  outline?: Sym[];
  sources?: { id: string; count: number; error?: string }[];
  freshness?: string;
  freshnessNote?: string;
  diagnostics?: Diag[];
  files?: { path: string; count: number }[];
  root?: Call;
  position?: { line: number; column: number; token: string };
}

const call = async (tool: string, input: Record<string, unknown>) => (await invokeTool<Answer>(tool, input)).json;
const symbols = (input: Record<string, unknown>) => call('dsh_symbols', input);
const diagnostics = (input: Record<string, unknown>) => call('dsh_diagnostics', input);
const calls = (input: Record<string, unknown>) => call('dsh_call_hierarchy', input);
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
/** `dsh_lsp`, asked again while it answers "not ready" (TypeScript loading its project on a loaded machine), up to 90 s. */
async function lspWhenReady<T>(input: Record<string, unknown>): Promise<T> {
  const end = Date.now() + 90_000;
  for (;;) {
    try {
      return (await invokeTool<T>('dsh_lsp', input)).json;
    } catch (e) {
      if (!/not available or not ready/.test(String(e)) || Date.now() > end) throw e;
    }
  }
}
const tree = (s: readonly Sym[] = [], depth = 0): string[] =>
  s.flatMap((x) => [`${'  '.repeat(depth)}${x.kind} ${x.name} ${x.line}:${x.column}`, ...tree(x.children, depth + 1)]);
const edges = (c: Call): string[] =>
  (c.calls ?? []).map((x) => `${x.name} ${x.path}:${x.line}${x.cycle ? ' cycle' : ''}${x.seenAbove ? ' seenAbove' : ''}`);

describe('dsh_symbols, dsh_diagnostics, dsh_call_hierarchy on the TypeScript fixture', function () {
  this.timeout(180_000);
  const broken = () => path.join(root(), 'ts/diag/broken.ts');

  before(async () => {
    await waitForTools(['dsh_symbols', 'dsh_diagnostics', 'dsh_call_hierarchy', 'dsh_lsp']);
  });
  after(() => fs.rmSync(path.dirname(broken()), { recursive: true, force: true }));

  it('outline: nested classes as a tree, positions on the names (1-based), paged and counted', async () => {
    const r = await symbols({ filePath: 'ts/outline/shapes.ts' });
    assert.equal(r.mode, 'outline');
    assert.equal(r.provider, 'vscode');
    const lines = tree(r.outline);
    assert.ok(lines.includes('  Class Shape 2:16'), lines.join('\n'));
    assert.ok(lines.includes('    Method area 3:5'), lines.join('\n'));
    assert.ok(lines.includes('  Class Circle 8:16'), lines.join('\n'));
    assert.ok(lines.includes('    Property radius 9:5'), lines.join('\n'));
    assert.match(lines[0]!, /^(Module|Namespace) Geometry 1:18$/);
    assert.ok(lines.includes('    Class Cube 17:18'), `a class two levels down: ${lines.join('\n')}`);
    assert.equal(r.total, lines.length);
    const page = await symbols({ filePath: 'ts/outline/shapes.ts', offset: 2, limit: 2 });
    assert.equal(page.shown, 2);
    assert.match(page.summary, new RegExp(`^showing 3–4 of ${r.total} in 1 file; next page: offset 4$`));
    const classes = await symbols({ filePath: 'ts/outline/shapes.ts', kinds: ['Class'] });
    assert.deepEqual(
      tree(classes.outline).map((l) => l.trim().split(' ')[1]),
      ['Shape', 'Circle', 'Cube'],
    );
  });

  it('workspace symbols by name and by partial name; a result feeds straight into dsh_lsp', async () => {
    await symbols({ filePath: 'ts/calls/main.ts' }); // the TypeScript project of the fixture is loaded
    const full = await symbols({ query: 'computeTotalPrice' });
    const hit = full.symbols!.find((s) => s.name === 'computeTotalPrice');
    assert.ok(hit, JSON.stringify(full));
    assert.deepEqual(
      [hit.kind, hit.path, hit.line, hit.column],
      ['Function', 'ts/calls/main.ts', 3, 17],
      'the name, not the declaration\'s start and not TypeScript\'s "()" label',
    );
    assert.ok(full.sources!.some((s) => s.id === 'vscode' && !s.error));
    const partial = await symbols({ query: 'TotalPri' });
    assert.ok(
      partial.symbols!.some((s) => s.name === 'computeTotalPrice' && s.path === 'ts/calls/main.ts'),
      JSON.stringify(partial),
    );
    const refs = await lspWhenReady<{ total: number; locations: { path: string }[] }>({
      operation: 'findReferences',
      filePath: hit.path,
      line: hit.line,
      column: hit.column,
    });
    assert.equal(refs.total, 1, JSON.stringify(refs));
    const mid = (await symbols({ query: 'middle', kinds: ['Function'] })).symbols!.find((s) => s.path === 'ts/calls/lib.ts')!;
    const midRefs = await lspWhenReady<{ locations: { path: string; line: number }[] }>({
      operation: 'findReferences',
      filePath: mid.path,
      line: mid.line,
      column: mid.column,
    });
    assert.deepEqual(midRefs.locations.map((l) => `${l.path}:${l.line}`).sort(), [
      'ts/calls/lib.ts:5',
      'ts/calls/main.ts:1',
      'ts/calls/main.ts:4',
    ]);
  });

  it('workspace symbols: a TypeScript project created after a search is searched too (the files found are searched again after a file is created)', async () => {
    await symbols({ query: 'computeTotalPrice' }); // the workspace's languages were found and loaded
    const later = path.join(root(), 'later-project');
    fs.mkdirSync(later, { recursive: true });
    try {
      fs.writeFileSync(path.join(later, 'tsconfig.json'), '{ "compilerOptions": { "strict": true }, "include": ["*.ts"] }\n');
      fs.writeFileSync(path.join(later, 'late.ts'), 'export function laterProjectFunction(): number {\n  return 1;\n}\n');
      await until(
        "the new project's function to be found",
        async () => ((await symbols({ query: 'laterProjectFunction' })).symbols ?? []).some((s) => s.path === 'later-project/late.ts'),
        30_000,
        500,
      );
    } finally {
      fs.rmSync(later, { recursive: true, force: true });
    }
  });

  // A clone's folder name can have a dot: one that ends like no file (me.github.io), or like a
  // script of a language the workspace already has (three.js, beside a .js file).
  for (const name of ['me.github.io', 'three.js']) {
    it(`workspace symbols: a TypeScript project moved in after a search, in a folder named like a clone (${name}), is searched too`, async () => {
      const script = path.join(root(), 'known-script.js');
      if (name.endsWith('.js')) fs.writeFileSync(script, 'export function knownScriptFunction() {\n  return 1;\n}\n');
      await until(
        "the workspace's languages to be found and loaded",
        async () => (await symbols({ query: name.endsWith('.js') ? 'knownScriptFunction' : 'computeTotalPrice' })).symbols?.length === 1,
        30_000,
        500,
      );
      // Made beside the workspace (the same file system), then moved in at once: the watcher reports
      // the folder alone, none of the files in it.
      const stage = fs.mkdtempSync(path.join(path.dirname(root()), 'dsh-stage-'));
      const clone = path.join(root(), name);
      const fn = `movedInCloneFunction${name.replace(/\W/g, '')}`;
      try {
        fs.mkdirSync(path.join(stage, name, 'src'), { recursive: true });
        fs.writeFileSync(path.join(stage, name, 'tsconfig.json'), '{ "compilerOptions": { "strict": true }, "include": ["src/*.ts"] }\n');
        fs.writeFileSync(path.join(stage, name, 'src', 'page.ts'), `export function ${fn}(): number {\n  return 2;\n}\n`);
        fs.renameSync(path.join(stage, name), clone);
        await until(
          "the moved-in project's function to be found",
          async () => ((await symbols({ query: fn })).symbols ?? []).some((s) => s.path === `${name}/src/page.ts`),
          30_000,
          500,
        );
      } finally {
        fs.rmSync(clone, { recursive: true, force: true });
        fs.rmSync(stage, { recursive: true, force: true });
        fs.rmSync(script, { force: true });
      }
    });
  }

  it('a type error is reported settled, and its fix on disk clears it', async () => {
    fs.mkdirSync(path.dirname(broken()), { recursive: true });
    fs.writeFileSync(broken(), "export const n: number = 'not a number';\n");
    const bad = await diagnostics({ filePath: 'ts/diag/broken.ts' });
    assert.equal(bad.freshness, 'settled', JSON.stringify(bad));
    assert.equal(bad.provider, 'vscode');
    const e = bad.diagnostics!.find((d) => d.severity === 'error');
    assert.ok(e, JSON.stringify(bad));
    assert.deepEqual([e.path, e.line, e.column, e.code, e.source], ['ts/diag/broken.ts', 1, 14, '2322', 'ts']);
    assert.match(bad.summary, /^showing 1–1 of 1 in 1 file \(1 error\)$/);
    const ws = await diagnostics({ severity: 'error' });
    assert.ok(
      ws.diagnostics!.some((d) => d.path === 'ts/diag/broken.ts' && d.code === '2322'),
      JSON.stringify(ws),
    );
    fs.writeFileSync(broken(), 'export const n: number = 42;\n');
    const fixed = await diagnostics({ filePath: 'ts/diag/broken.ts' });
    assert.deepEqual([fixed.freshness, fixed.total, fixed.summary], ['settled', 0, 'no problems'], JSON.stringify(fixed));
  });

  it('incoming and outgoing calls across two files, with call sites; a recursion is reported once', async () => {
    const incoming = await calls({ filePath: 'ts/calls/lib.ts', line: 1, column: 1, symbol: 'leaf', direction: 'incoming' });
    assert.equal(incoming.position!.token, 'leaf');
    assert.deepEqual([incoming.root!.name, incoming.root!.line, incoming.root!.column], ['leaf', 1, 17]);
    assert.deepEqual(edges(incoming.root!).sort(), ['computeTotalPrice ts/calls/main.ts:3', 'middle ts/calls/lib.ts:5']);
    const fromMain = incoming.root!.calls!.find((c) => c.name === 'computeTotalPrice')!;
    assert.deepEqual(
      fromMain.callSites!.map((s) => `${s.path}:${s.line}:${s.column} ${s.preview}`),
      ['ts/calls/main.ts:4:21 return middle() + leaf();'],
    );
    const outgoing = await calls({ filePath: 'ts/calls/main.ts', line: 3, column: 1, direction: 'outgoing' });
    assert.equal(outgoing.position!.token, 'computeTotalPrice', 'the keyword snaps to the declared name');
    assert.deepEqual(edges(outgoing.root!).sort(), ['leaf ts/calls/lib.ts:1', 'middle ts/calls/lib.ts:5']);
    assert.ok(outgoing.root!.calls!.every((c) => c.callSites!.every((s) => s.path === 'ts/calls/main.ts' && s.line === 4)));
    const deep = await calls({ filePath: 'ts/calls/lib.ts', line: 1, column: 17, direction: 'incoming', depth: 3 });
    const middle = deep.root!.calls!.find((c) => c.name === 'middle')!;
    assert.deepEqual(edges(middle), ['computeTotalPrice ts/calls/main.ts:3 seenAbove']);
    const rec = await calls({ filePath: 'ts/calls/lib.ts', line: 9, column: 17, direction: 'incoming', depth: 3 });
    assert.deepEqual(edges(rec.root!), ['countdown ts/calls/lib.ts:9 cycle']);
  });

  it('bad input: whitespace, depth, unknown and unsupported files, query bounds, markdown call hierarchy', async () => {
    await assert.rejects(
      calls({ filePath: 'ts/calls/lib.ts', line: 2, column: 1, direction: 'incoming' }),
      /line 2 column 1 is on whitespace/,
    );
    await assert.rejects(
      calls({ filePath: 'ts/calls/lib.ts', line: 1, column: 17, direction: 'incoming', depth: 9 }),
      /`depth` is not valid \(got 9\); valid: an integer in 1\.\.5/,
    );
    await assert.rejects(
      calls({ filePath: 'ts/calls/lib.ts', line: 99, column: 1, direction: 'incoming' }),
      /line 99 is out of range.*valid lines are 1\.\.12/,
    );
    await assert.rejects(calls({ filePath: 'ts/nope.ts', line: 1, column: 1, direction: 'incoming' }), /file not found: ts\/nope\.ts/);
    await assert.rejects(
      calls({ filePath: 'vault/one note.md', line: 1, column: 3, direction: 'incoming' }),
      /markdown notes have no call hierarchy/,
    );
    await assert.rejects(symbols({ filePath: 'ts/notes.xyz' }), /no provider for \.xyz files; extensions served: .*\.md/);
    await assert.rejects(
      symbols({ query: 'x'.repeat(201) }),
      /`query` is not valid \(got "x+…" \(201 characters\)\); valid: .*1\.\.200 characters/,
    );
    await assert.rejects(symbols({ query: '' }), /`query` is not valid \(got ""\); valid: .*1\.\.200 characters/);
    await assert.rejects(
      diagnostics({ severity: 'fatal' }),
      /`severity` is not valid \(got "fatal"\); valid: one of error, warning, information, hint/,
    );
  });
});

describe('dsh_symbols and dsh_diagnostics on the wiki vault (md-links)', function () {
  this.timeout(60_000);
  before(() => waitForTools(['dsh_symbols', 'dsh_diagnostics']));

  it("a note's outline: headings nested by level, block anchors inside their section", async () => {
    const r = await symbols({ filePath: 'vault/another note.md' });
    assert.equal(r.provider, 'md-links');
    assert.deepEqual(tree(r.outline), ['String Another note 1:1', '  String Details 5:1', '    Key ^detail-block 7:27']);
  });

  it("workspace symbols: a front-matter alias and a note title, from md-links only (no duplicates from VS Code's markdown support)", async () => {
    const alias = await symbols({ query: 'Zettelkasten' });
    assert.deepEqual(
      alias.symbols!.map((s) => `${s.name} (${s.detail}) ${s.path}:${s.line}`),
      ['Zettelkasten Hub (alias) vault/aliased.md:3'],
    );
    const title = await symbols({ query: 'Aliased note' });
    assert.deepEqual(
      title.symbols!.map((s) => `${s.name} (${s.detail}) ${s.path}:${s.line}`),
      ['Aliased note (title) vault/aliased.md:5'],
    );
  });

  it('broken and ambiguous links are diagnostics, for the note and in the workspace, and in the Problems panel', async () => {
    const r = await diagnostics({ filePath: 'vault/index.md' });
    assert.equal(r.provider, 'md-links');
    assert.equal(r.freshness, 'settled');
    assert.deepEqual(
      r.diagnostics!.map((d) => `${d.severity} ${d.code} ${d.path}:${d.line}:${d.column}`),
      ['error broken-link vault/index.md:6:5', 'warning ambiguous-link vault/index.md:4:5'],
    );
    const ws = await diagnostics({});
    assert.ok(
      ws.diagnostics!.some((d) => d.code === 'broken-link' && d.path === 'vault/index.md'),
      JSON.stringify(ws),
    );
    assert.equal(
      ws.diagnostics!.filter((d) => d.path === 'vault/index.md').length,
      2,
      'md-links answers once for notes (the Problems panel copy is not counted again)',
    );
    const uri = vscode.Uri.file(path.join(root(), 'vault/index.md'));
    await until(
      'the broken link in the Problems panel',
      () => vscode.languages.getDiagnostics(uri).some((d) => d.source === 'md-links' && d.code === 'broken-link'),
      15_000,
    );
    const panel = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'md-links');
    assert.deepEqual(panel.map((d) => [d.range.start.line, d.range.start.character, d.severity]).sort(), [
      [3, 4, vscode.DiagnosticSeverity.Warning],
      [5, 4, vscode.DiagnosticSeverity.Error],
    ]);
  });

  it('the Problems panel follows edits: a note named by the broken link clears it', async () => {
    const missing = vscode.Uri.file(path.join(root(), 'vault/missing note.md'));
    const index = vscode.Uri.file(path.join(root(), 'vault/index.md'));
    const broken = () => vscode.languages.getDiagnostics(index).some((d) => d.code === 'broken-link');
    await vscode.workspace.fs.writeFile(missing, Buffer.from('# Missing note\n'));
    try {
      await until('the broken link to be resolved', () => !broken(), 15_000);
      assert.equal((await diagnostics({ filePath: 'vault/index.md', severity: 'error' })).total, 0);
    } finally {
      await vscode.workspace.fs.delete(missing);
    }
    await until('the link to be broken again', broken, 15_000);
  });
});

describe('"DSH: Show What the Agent Sees at Cursor" with the new tools', function () {
  this.timeout(60_000);

  it("shows the file's outline, problems and the calls at the cursor", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'ts/calls/lib.ts')), {
      viewColumn: vscode.ViewColumn.One,
    });
    editor.selection = new vscode.Selection(0, 16, 0, 16);
    const answers = await vscode.commands.executeCommand<Record<string, Answer>>('dsh.showAgentViewAtCursor');
    assert.ok(
      tree(answers.symbols!.outline).some((l) => l.startsWith('Function leaf 1:17')),
      JSON.stringify(answers.symbols),
    );
    assert.equal(answers.diagnostics!.freshness, 'settled', JSON.stringify(answers.diagnostics));
    assert.deepEqual(edges(answers.callHierarchyIncoming!.root!).sort(), [
      'computeTotalPrice ts/calls/main.ts:3',
      'middle ts/calls/lib.ts:5',
    ]);
    assert.deepEqual(edges(answers.callHierarchyOutgoing!.root!), []);
    const view = vscode.workspace.textDocuments.find((d) => d.uri.path === '/agent-view.jsonc');
    assert.ok(view && view.getText().includes('dsh_call_hierarchy'), 'the view document holds the new answers');
  });
});
