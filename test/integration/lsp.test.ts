/**
 * `dsh_lsp` through `vscode.lm.invokeTool`, as an agent calls it, in a real extension host running
 * the installed VSIX: the field's navigation cases (L) on the TypeScript fixture
 * (test/fixtures/workspace/ts, answered by the built-in TypeScript extension), providers this test
 * registers for `.ini` (L01, L04, L20, L21: the input to the thing under test), W cases and the DSH
 * verification on the vault copy (test/fixtures/workspace/vault), the markdown editor providers, the
 * palette commands and the `navigation` API field.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';

interface Loc {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  preview: string;
  isDeclaration?: boolean;
  external?: boolean;
  nodeModules?: boolean;
  ambiguous?: boolean;
  candidates?: string[];
  unresolved?: boolean;
  embed?: boolean;
}
interface Answer {
  operation: string;
  file: string;
  provider: string;
  position: { line: number; column: number; lineText: string; token: string; note?: string };
  total: number;
  shown: number;
  offset: number;
  nextOffset?: number;
  summary: string;
  files: { path: string; count: number }[];
  locations: Loc[];
  collapsed?: { nodeModules?: { count: number }; external?: { count: number } };
  hover?: string | null;
}

const lsp = async (input: Record<string, unknown>) => (await invokeTool<Answer>('dsh_lsp', input)).json;
const at = (l: Loc) => `${l.path}:${l.line}:${l.column}${l.isDeclaration ? ' decl' : ''}`;
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
/** 1-based column (code points) of `needle` on `lineText` (the `nth` occurrence, 0-based). */
const colOf = (lineText: string, needle: string, nth = 0) => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = lineText.indexOf(needle, i + 1);
  assert.ok(i >= 0, `${needle} not on ${lineText}`);
  return Array.from(lineText.slice(0, i)).length + 1;
};
const lineOf = (rel: string, n: number) => fs.readFileSync(path.join(root(), rel), 'utf8').split(/\r\n|\r|\n/)[n - 1]!;

describe('dsh_lsp through vscode.lm.invokeTool: code (TypeScript fixture)', function () {
  this.timeout(120_000);
  let outside: string;
  const l12 = () => path.join(root(), 'ts/l12.ts');
  const link = () => path.join(root(), 'ts/ext');

  before(async () => {
    await waitForTools(['dsh_lsp']);
    // L12: a workspace symlink leading outside the workspace, made before TypeScript loads the project.
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-l12-'));
    fs.writeFileSync(path.join(outside, 'lib.ts'), 'export function outside(): number {\n  return 1;\n}\n');
    fs.rmSync(link(), { force: true });
    fs.symlinkSync(outside, link(), 'dir');
    fs.writeFileSync(l12(), "import { outside } from './ext/lib';\noutside();\n");
  });

  after(() => {
    fs.rmSync(link(), { force: true });
    fs.rmSync(l12(), { force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('L05/L03: the first query after opening waits for the language server; hover is plain text `const x: 1`', async () => {
    const r = await lsp({ operation: 'hover', filePath: 'ts/l03.ts', line: 1, column: 7 });
    assert.equal(r.provider, 'vscode');
    assert.equal(r.position.token, 'x');
    assert.ok(typeof r.hover === 'string' && /const x: 1|x: number/.test(r.hover), `hover: ${r.hover}`);
    assert.ok(!r.hover.includes('```'), 'plain text, no code fences');
  });

  it('L02: definition of helper() at 2:1 -> l02.ts line 1, column 17', async () => {
    const r = await lsp({ operation: 'goToDefinition', filePath: 'ts/l02.ts', line: 2, column: 1 });
    assert.deepEqual(r.locations, [
      { path: 'ts/l02.ts', line: 1, column: 17, endLine: 1, endColumn: 23, preview: 'export function helper() {}' },
    ]);
    assert.equal(r.total, 1);
    assert.deepEqual(r.position, { line: 2, column: 1, lineText: 'helper();', token: 'helper' });
  });

  it('L11: a position on `export` snaps to the declared name and says so', async () => {
    const r = await lsp({ operation: 'findReferences', filePath: 'ts/l02.ts', line: 1, column: 1 });
    assert.equal(r.position.column, 17);
    assert.equal(r.position.token, 'helper');
    assert.match(r.position.note ?? '', /keyword 'export'.*'helper' at column 17/);
    assert.deepEqual(r.locations.map(at), ['ts/l02.ts:1:17 decl', 'ts/l02.ts:2:1']);
  });

  it('L10/L19: references of f: three hits in 1-based line:col, the declaration included and flagged', async () => {
    const r = await lsp({ operation: 'findReferences', filePath: 'ts/l10/a.ts', line: 1, column: 17 });
    assert.deepEqual(r.locations.map(at), ['ts/l10/a.ts:1:17 decl', 'ts/l10/b.ts:1:9', 'ts/l10/b.ts:2:1']);
    assert.equal(r.summary, 'showing 1–3 of 3 in 2 files');
    const pkg = vscode.extensions.getExtension('dsh.dsh-bridge')!.packageJSON as {
      contributes: { languageModelTools: { name: string; inputSchema: { properties: object } }[] };
    };
    const schema = pkg.contributes.languageModelTools.find((t) => t.name === 'dsh_lsp')!.inputSchema;
    assert.deepEqual(
      Object.keys(schema.properties).sort(),
      ['column', 'filePath', 'limit', 'line', 'offset', 'operation', 'symbol'],
      'L19: no switch to drop the declaration',
    );
  });

  it('L08/L07: a returned location fed back works, whatever the editor selection is', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'ts/l02.ts')));
    editor.selection = new vscode.Selection(1, 0, 1, 6);
    const def = await lsp({ operation: 'goToDefinition', filePath: 'ts/l10/b.ts', line: 2, column: 1 });
    assert.deepEqual(def.locations.map(at), ['ts/l10/a.ts:1:17']);
    const [l] = def.locations;
    const refs = await lsp({ operation: 'findReferences', filePath: l!.path, line: l!.line, column: l!.column });
    assert.equal(refs.total, 3);
    const abs = await lsp({ operation: 'hover', filePath: path.join(root(), l!.path), line: l!.line, column: l!.column });
    assert.match(abs.hover ?? '', /function f\(\): void/);
  });

  it('L09: 150 references are bounded and honest: "showing 1–50 of 150", per-file counts, paging', async () => {
    const first = await lsp({ operation: 'findReferences', filePath: 'ts/l09/decl.ts', line: 1, column: 17 });
    assert.equal(first.total, 150);
    assert.equal(first.shown, 50);
    assert.equal(first.nextOffset, 50);
    assert.match(first.summary, /^showing 1–50 of 150 in 3 files; next page: offset 50$/);
    assert.deepEqual(first.files, [
      { path: 'ts/l09/decl.ts', count: 1 },
      { path: 'ts/l09/many.ts', count: 101 },
      { path: 'ts/l09/more.ts', count: 48 },
    ]);
    const last = await lsp({ operation: 'findReferences', filePath: 'ts/l09/decl.ts', line: 1, column: 17, offset: 100 });
    assert.equal(last.shown, 50);
    assert.equal(last.nextOffset, undefined);
    assert.match(last.summary, /^showing 101–150 of 150/);
  });

  it('L13: a path with a space, #, % and + works and is reported decoded and workspace-relative', async () => {
    const file = 'ts/docs/My Notes #1/a%b+c.ts';
    const r = await lsp({ operation: 'findReferences', filePath: file, line: 1, column: 14 });
    assert.deepEqual(r.locations.map(at), [`${file}:1:14 decl`, `${file}:2:22`, `${file}:2:32`]);
  });

  it('L14/L16: an emoji and CJK before the identifier: columns in characters both ways', async () => {
    const file = 'ts/unicode/l14.ts';
    const col = colOf(lineOf(file, 2), '${l}') + 2;
    const def = await lsp({ operation: 'goToDefinition', filePath: file, line: 2, column: col });
    assert.equal(def.position.token, 'l');
    assert.deepEqual(def.locations.map(at), [`${file}:1:7`]);
    const refs = await lsp({ operation: 'findReferences', filePath: file, line: 1, column: 7 });
    assert.deepEqual(refs.locations.map(at), [`${file}:1:7 decl`, `${file}:2:${col}`]);
    const cjk = colOf(lineOf(file, 6), '名前');
    const d2 = await lsp({ operation: 'goToDefinition', filePath: file, line: 6, column: cjk });
    assert.deepEqual(d2.locations.map(at), [`${file}:5:7`]);
  });

  it('L15: `/*°C*/ clk` — the column after a degree sign', async () => {
    const file = 'ts/unicode/l14.ts';
    const col = colOf(lineOf(file, 4), 'clk');
    const r = await lsp({ operation: 'goToDefinition', filePath: file, line: 4, column: col, symbol: 'clk' });
    assert.deepEqual(r.locations.map(at), [`${file}:3:5`]);
  });

  it('L16: a CRLF file with tabs', async () => {
    const file = 'ts/unicode/crlf.ts';
    const col = colOf(lineOf(file, 2), 'crlf');
    const r = await lsp({ operation: 'goToDefinition', filePath: file, line: 2, column: col });
    assert.deepEqual(r.locations.map(at), [`${file}:1:14`]);
  });

  it('symbol re-anchors a miscounted column', async () => {
    const r = await lsp({ operation: 'goToDefinition', filePath: 'ts/l10/b.ts', line: 1, column: 3, symbol: 'f' });
    assert.equal(r.position.column, 9);
    assert.match(r.position.note ?? '', /re-anchored to 'f' at column 9/);
    assert.deepEqual(r.locations.map(at), ['ts/l10/a.ts:1:17']);
  });

  it('L17: line 0 or past the end is an error quoting the valid range', async () => {
    await assert.rejects(
      lsp({ operation: 'hover', filePath: 'ts/l02.ts', line: 0, column: 1 }),
      /`line` is not valid \(got 0\); valid: an integer ≥ 1; lines are 1-based: line 1 is the file's first line \(a line past the file's end is refused naming the file's range\)/,
    );
    await assert.rejects(
      lsp({ operation: 'hover', filePath: 'ts/l02.ts', line: 99, column: 1 }),
      /line 99 is out of range.*valid lines are 1\.\.3/,
    );
  });

  it('L06: a file type with no provider is an explicit error, not an empty list; a missing file is "file not found"', async () => {
    await assert.rejects(
      lsp({ operation: 'findReferences', filePath: 'ts/notes.xyz', line: 1, column: 1 }),
      /no navigation provider for \.xyz; extensions served: .*\.md/,
    );
    await assert.rejects(lsp({ operation: 'findReferences', filePath: 'ts/nope.ts', line: 1, column: 1 }), /file not found: ts\/nope\.ts/);
  });

  it('L18: references landing in node_modules: workspace hits first, the rest collapsed into a count', async () => {
    const r = await lsp({ operation: 'findReferences', filePath: 'ts/l18.ts', line: 2, column: 1 });
    assert.deepEqual(r.locations.slice(0, 2).map(at), ['ts/l18.ts:1:10', 'ts/l18.ts:2:1']);
    const decl = r.locations.find((l) => l.isDeclaration);
    assert.ok(decl?.nodeModules && decl.path === 'ts/node_modules/fakelib/index.d.ts', JSON.stringify(r.locations));
    assert.equal(r.collapsed?.nodeModules?.count, 1, JSON.stringify(r));
    assert.ok(!r.locations.some((l) => l.nodeModules && !l.isDeclaration));
  });

  it('L12: a symlink leading outside: its locations left out and counted, judged by real path', async () => {
    const leftOut = (r: object) => (r as { outsideWorkspace?: { leftOut: number } }).outsideWorkspace?.leftOut ?? 0;
    // TypeScript may still be resolving the import through the link when this test runs alone.
    let def = await lsp({ operation: 'goToDefinition', filePath: 'ts/l12.ts', line: 2, column: 1 });
    let refs = def;
    await until(
      'TypeScript to resolve the import through the link',
      async () => {
        def = await lsp({ operation: 'goToDefinition', filePath: 'ts/l12.ts', line: 2, column: 1 });
        refs = await lsp({ operation: 'findReferences', filePath: 'ts/l12.ts', line: 2, column: 1 });
        return leftOut(refs) > 0;
      },
      60_000,
      500,
    );
    // Its names and positions are outside the workspace: not shown unless the user confirmed reading
    // outside. (TypeScript of VS Code 1.139 answers the import that binds the name, in the workspace.)
    assert.deepEqual(
      def.locations.filter((l) => !l.path.startsWith('ts/')),
      [],
    );
    const keys = refs.locations.map(at);
    assert.equal(new Set(keys).size, keys.length, `duplicates: ${keys.join(', ')}`);
    assert.deepEqual(keys, ['ts/l12.ts:1:10', 'ts/l12.ts:2:1']);
    assert.equal(leftOut(refs), 1, 'the declaration outside');
  });

  describe('with providers registered by the test for .ini (language ini)', () => {
    const iniFile = 'ts/custom.ini';
    const disposables: vscode.Disposable[] = [];
    const sel: vscode.DocumentSelector = { language: 'ini' };
    before(() => {
      disposables.push(
        vscode.languages.registerDocumentSymbolProvider(sel, {
          provideDocumentSymbols: (doc) => [
            new vscode.SymbolInformation(
              'section',
              vscode.SymbolKind.Namespace,
              '',
              new vscode.Location(doc.uri, new vscode.Position(0, 1)),
            ),
          ],
        }),
      );
    });
    after(() => {
      for (const d of disposables.splice(0)) d.dispose();
    });

    it('L01/L21: LocationLinks report targetSelectionRange (not targetRange); no originSelectionRange is fine; merged with a Location and deduped', async () => {
      const regs = [
        vscode.languages.registerDefinitionProvider(sel, {
          provideDefinition: (doc) => [
            { targetUri: doc.uri, targetRange: new vscode.Range(0, 0, 2, 5), targetSelectionRange: new vscode.Range(1, 0, 1, 3) },
          ],
        }),
        vscode.languages.registerDefinitionProvider(sel, {
          provideDefinition: (doc) => new vscode.Location(doc.uri, new vscode.Range(1, 0, 1, 3)),
        }),
      ];
      try {
        const r = await lsp({ operation: 'goToDefinition', filePath: iniFile, line: 3, column: 9 });
        assert.deepEqual(r.locations, [{ path: iniFile, line: 2, column: 1, endLine: 2, endColumn: 4, preview: 'key = value' }]);
      } finally {
        for (const d of regs) d.dispose();
      }
    });

    it('L04: empty hovers (empty MarkupContent, empty code) are null', async () => {
      const reg = vscode.languages.registerHoverProvider(sel, {
        provideHover: () =>
          new vscode.Hover([new vscode.MarkdownString(''), { language: 'ini', value: '' }, new vscode.MarkdownString('```ini\n\n```')]),
      });
      try {
        const r = await lsp({ operation: 'hover', filePath: iniFile, line: 1, column: 2 });
        assert.equal(r.hover, null);
      } finally {
        reg.dispose();
      }
    });

    it('L20: references answered null, undefined or [] all mean zero results, no exception', async () => {
      for (const answer of [null, undefined, []]) {
        const reg = vscode.languages.registerReferenceProvider(sel, { provideReferences: () => answer });
        try {
          const r = await lsp({ operation: 'findReferences', filePath: iniFile, line: 2, column: 1 });
          assert.deepEqual([r.total, r.locations, r.summary], [0, [], 'no results'], `answer ${JSON.stringify(answer)}`);
        } finally {
          reg.dispose();
        }
      }
    });
  });

  it('L05: a language with no support says "not available or not ready", distinct from no results', async () => {
    await assert.rejects(
      lsp({ operation: 'goToDefinition', filePath: 'ts/sample.bat', line: 1, column: 1 }),
      /language support for \.bat \(bat\) is not available or not ready/,
    );
  });
});

describe('dsh_lsp through vscode.lm.invokeTool: notes (md-links on test/fixtures/workspace/vault)', function () {
  this.timeout(60_000);
  before(() => waitForTools(['dsh_lsp']));

  it('DSH verification: definition of [[another note]] -> the other note, line 1; references on that line include the line itself', async () => {
    const def = await lsp({ operation: 'goToDefinition', filePath: 'vault/one note.md', line: 3, column: 17 });
    assert.equal(def.provider, 'md-links');
    assert.deepEqual(def.locations.map(at), ['vault/another note.md:1:1']);
    const refs = await lsp({ operation: 'findReferences', filePath: 'vault/one note.md', line: 3, column: 17 });
    assert.deepEqual(refs.locations.map(at), [
      'vault/another note.md:1:1 decl',
      'vault/index.md:5:3',
      'vault/index.md:13:3',
      'vault/one note.md:3:15',
      'vault/one note.md:5:30',
    ]);
    assert.equal(refs.locations.find((l) => l.line === 5 && l.path === 'vault/one note.md')?.embed, true, 'W11: an embed is a reference');
  });

  it('W01: a link in inline code or a fence is not a link', async () => {
    assert.equal((await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 7, column: 4 })).total, 0);
    assert.equal((await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 10, column: 3 })).total, 0);
  });

  it('W05: duplicate names resolve deterministically, marked ambiguous with both candidates', async () => {
    const r = await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 4, column: 3 });
    assert.equal(r.locations.length, 1);
    assert.equal(r.locations[0]!.ambiguous, true);
    assert.deepEqual(r.locations[0]!.candidates, ['vault/Topics/todo.md', 'vault/archive/todo.md']);
  });

  it('W03/W07: [[Topics/Todo]] resolves case-insensitively by path suffix; a table alias after \\| too', async () => {
    assert.deepEqual((await lsp({ operation: 'goToDefinition', filePath: 'vault/one note.md', line: 5, column: 12 })).locations.map(at), [
      'vault/Topics/todo.md:1:1',
    ]);
    assert.deepEqual((await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 17, column: 9 })).locations.map(at), [
      'vault/one note.md:1:1',
    ]);
  });

  it('W09/W12: a block link goes to the block line; a link after an emoji starts at column 3', async () => {
    assert.deepEqual((await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 5, column: 3 })).locations.map(at), [
      'vault/another note.md:7:1',
    ]);
    const r = await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 13, column: 3 });
    assert.deepEqual(r.locations.map(at), ['vault/another note.md:1:1']);
  });

  it('W10: a dangling link is reported unresolved and nothing is created', async () => {
    const r = await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 6, column: 3 });
    assert.equal(r.locations[0]!.unresolved, true);
    assert.ok(!fs.existsSync(path.join(root(), 'vault/missing note.md')));
  });

  it('hover on a link: the note title and first lines; goToImplementation: no results', async () => {
    const h = await lsp({ operation: 'hover', filePath: 'vault/one note.md', line: 3, column: 17 });
    assert.match(h.hover ?? '', /^Another note \(vault\/another note\.md\)\n\nBody of another note\./);
    assert.equal((await lsp({ operation: 'goToImplementation', filePath: 'vault/one note.md', line: 3, column: 17 })).total, 0);
  });

  it('the index follows file changes: a new note linking [[one note]] appears in references, and leaves when its folder is deleted', async () => {
    const dir = vscode.Uri.file(path.join(root(), 'vault/fresh'));
    const uri = vscode.Uri.joinPath(dir, 'fresh note.md');
    const refsOfOne = async () =>
      (await lsp({ operation: 'findReferences', filePath: 'vault/one note.md', line: 1, column: 1 })).locations.map(at);
    await vscode.workspace.fs.writeFile(uri, Buffer.from('# Fresh\n\nSee [[one note]].\n'));
    try {
      await until('the new note to be referenced', async () => (await refsOfOne()).includes('vault/fresh/fresh note.md:3:5'), 30_000, 200);
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
    await until("the deleted folder's note to go", async () => !(await refsOfOne()).some((k) => k.startsWith('vault/fresh/')), 30_000, 200);
  });

  it('the editor too: VS Code definition and references on a wiki link come from md-links', async () => {
    const uri = vscode.Uri.file(path.join(root(), 'vault/one note.md'));
    await vscode.workspace.openTextDocument(uri);
    const defs = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
      'vscode.executeDefinitionProvider',
      uri,
      new vscode.Position(2, 16),
    );
    const target = vscode.Uri.file(path.join(root(), 'vault/another note.md')).toString();
    assert.ok(
      defs.some((d) => ('targetUri' in d ? d.targetUri : d.uri).toString() === target),
      JSON.stringify(defs),
    );
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      uri,
      new vscode.Position(2, 16),
    );
    assert.ok(
      refs.some((r) => r.uri.toString() === uri.toString() && r.range.start.line === 2),
      JSON.stringify(refs),
    );
  });
  it('settings: dsh.markdown.aliasOrder alias-first reads [[label|target]]; dsh.markdown.editorProviders false turns the editor providers off', async () => {
    const config = vscode.workspace.getConfiguration();
    const uri = vscode.Uri.file(path.join(root(), 'vault/one note.md'));
    const mdLinksAnswers = async () => {
      const defs = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
        'vscode.executeDefinitionProvider',
        uri,
        new vscode.Position(2, 16),
      );
      const target = vscode.Uri.file(path.join(root(), 'vault/another note.md')).toString();
      return defs.some((d) => ('targetUri' in d ? d.targetUri : d.uri).toString() === target);
    };
    try {
      await config.update('dsh.markdown.aliasOrder', 'alias-first', vscode.ConfigurationTarget.Global);
      await until(
        '[[one note\\|first]] to read "first" as the target',
        async () =>
          (await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 17, column: 9 })).locations[0]?.unresolved === true,
        10_000,
        200,
      );
      await config.update('dsh.markdown.editorProviders', false, vscode.ConfigurationTarget.Global);
      await until('the editor providers to be off', async () => !(await mdLinksAnswers()), 10_000, 200);
      assert.equal(
        (await lsp({ operation: 'goToDefinition', filePath: 'vault/one note.md', line: 3, column: 17 })).total,
        1,
        'dsh_lsp still answers',
      );
    } finally {
      await config.update('dsh.markdown.aliasOrder', undefined, vscode.ConfigurationTarget.Global);
      await config.update('dsh.markdown.editorProviders', undefined, vscode.ConfigurationTarget.Global);
    }
    await until('the editor providers to be back', mdLinksAnswers, 10_000, 200);
    assert.deepEqual((await lsp({ operation: 'goToDefinition', filePath: 'vault/index.md', line: 17, column: 9 })).locations.map(at), [
      'vault/one note.md:1:1',
    ]);
  });
});

describe('navigation API and palette commands', function () {
  this.timeout(60_000);

  it('another extension registers a provider through exports.navigation and dsh_lsp uses it', async () => {
    const ext = vscode.extensions.getExtension('dsh.dsh-bridge')!;
    const api = (await ext.activate()) as { navigation: { registerProvider(p: unknown): { dispose(): void } } };
    const reg = api.navigation.registerProvider({
      id: 'test-dshx',
      extensions: { '.dshx': 'plaintext' },
      query: async (req: { operation: string; uri: string; workspaceUri: string }) =>
        req.operation === 'hover'
          ? { kind: 'hover', contents: 'from the test provider' }
          : {
              kind: 'locations',
              locations: [{ uri: req.uri, range: { start: { line: 0, character: 8 }, end: { line: 0, character: 12 } } }],
              resolvedWorkspaceUri: req.workspaceUri,
            },
    });
    try {
      const r = await lsp({ operation: 'goToDefinition', filePath: 'ts/sample.dshx', line: 1, column: 1 });
      assert.equal(r.provider, 'test-dshx');
      assert.deepEqual(r.locations.map(at), ['ts/sample.dshx:1:9']);
      assert.equal((await lsp({ operation: 'hover', filePath: 'ts/sample.dshx', line: 1, column: 1 })).hover, 'from the test provider');
    } finally {
      reg.dispose();
    }
    await assert.rejects(lsp({ operation: 'hover', filePath: 'ts/sample.dshx', line: 1, column: 1 }), /no navigation provider for \.dshx/);
  });

  it('a provider registered through the API may take an extension the vscode provider holds, which takes it back on dispose', async () => {
    const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as {
      navigation: {
        registerProvider(p: unknown): { dispose(): void };
        describe(): { providers: { id: string; extensions: { extension: string }[] }[] };
      };
    };
    const owner = () => api.navigation.describe().providers.find((p) => p.extensions.some((e) => e.extension === '.ini'))?.id;
    assert.equal(owner(), 'vscode');
    const reg = api.navigation.registerProvider({
      id: 'test-ini',
      extensions: { '.ini': 'ini' },
      query: async () => ({ kind: 'hover', contents: 'ini from the test provider' }),
    });
    try {
      assert.equal(owner(), 'test-ini');
      const r = await lsp({ operation: 'hover', filePath: 'ts/custom.ini', line: 1, column: 2 });
      assert.deepEqual([r.provider, r.hover], ['test-ini', 'ini from the test provider']);
      assert.ok(
        api.navigation
          .describe()
          .providers.find((p) => p.id === 'vscode')!
          .extensions.some((e) => e.extension === '.ts'),
        'the vscode provider keeps the rest',
      );
    } finally {
      reg.dispose();
    }
    assert.equal(owner(), 'vscode');
    assert.throws(
      () => api.navigation.registerProvider({ id: 'test-md', extensions: { '.md': 'markdown' }, query: async () => null }),
      /already served by provider 'md-links'/,
    );
  });

  it('"DSH: Show Effective Configuration" lists backends, providers with extensions, tools and settings', async () => {
    const c = await vscode.commands.executeCommand<{
      terminalBackends: string[];
      navigationProviders: { id: string; extensions: string[] }[];
      tools: { name: string; registered: boolean }[];
      settings: Record<string, { value: unknown }>;
    }>('dsh.showEffectiveConfiguration');
    const md = c.navigationProviders.find((p) => p.id === 'md-links')!;
    const vs = c.navigationProviders.find((p) => p.id === 'vscode')!;
    assert.deepEqual(md.extensions, ['.markdown (markdown)', '.md (markdown)']);
    assert.ok(vs.extensions.includes('.ts (typescript)'));
    assert.ok(!vs.extensions.some((e) => e.startsWith('.md ')), 'the vscode provider does not claim .md');
    assert.ok(c.tools.some((t) => t.name === 'dsh_lsp' && t.registered));
    assert.equal(c.settings['dsh.markdown.editorProviders']?.value, true);
    assert.ok(Array.isArray(c.terminalBackends));
    assert.ok(
      vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'dsh-view'),
      'shown beside the editor',
    );
  });

  it('"DSH: Show What the Agent Sees at Cursor" runs the four operations through dsh_lsp at the cursor, then the file\'s symbols, diagnostics and call hierarchy', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'ts/l10/b.ts')), {
      viewColumn: vscode.ViewColumn.One,
    });
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const answers = await vscode.commands.executeCommand<Record<string, Answer>>('dsh.showAgentViewAtCursor');
    assert.deepEqual(Object.keys(answers), [
      'goToDefinition',
      'findReferences',
      'goToImplementation',
      'hover',
      'symbols',
      'diagnostics',
      'callHierarchyIncoming',
      'callHierarchyOutgoing',
    ]);
    assert.deepEqual(answers.goToDefinition!.locations.map(at), ['ts/l10/a.ts:1:17']);
    assert.equal(answers.findReferences!.total, 3);
    assert.match(answers.hover!.hover ?? '', /f\(\): void/);
    const view = vscode.workspace.textDocuments.find((d) => d.uri.path === '/agent-view.jsonc');
    assert.ok(view && view.getText().includes('"goToDefinition"'), 'the view document holds the answers');
  });
});
