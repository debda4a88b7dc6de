// Symbols, diagnostics and call hierarchy from configured stdio servers (src/lsp/stdio/features.ts)
// under plain Node, against the real servers of the dev dependencies: bash-language-server
// (workspace/symbol over its background index, documentSymbol; no call hierarchy: unsupported,
// named) and typescript-language-server (call hierarchy across two files, pushed diagnostics).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as protocol from 'vscode-languageserver-protocol/node';
import { walkCalls } from '../../../src/lsp/features/callHierarchy';
import { StdioFeatures } from '../../../src/lsp/stdio/features';
import { StdioLspProvider } from '../../../src/lsp/stdio/provider';
import { StdioServerConfig } from '../../../src/lsp/stdio/config';
import { relativePathOf } from '../../../src/lsp/uri';
import type { CallTreeNode } from '../../../src/lsp/features/shapeCalls';
import { until } from '../../helpers/wait';

const ROOT = path.resolve(__dirname, '../../..');
const WS = path.join(ROOT, 'test/fixtures/workspace');
const WS_URI = pathToFileURL(WS).href;
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
const uri = (rel: string) => pathToFileURL(path.join(WS, rel)).href;
const rel = (u: string) => relativePathOf(WS_URI, u) ?? u;
const ctx = () => ({ workspaceUri: WS_URI, signal: new AbortController().signal });

const servers: StdioLspProvider[] = [];
function server(config: StdioServerConfig): StdioFeatures {
  const p = new StdioLspProvider(config, { protocol, workspaceUri: WS_URI, settleMs: 300 });
  servers.push(p);
  return new StdioFeatures(p);
}
/** Stops the servers a suite started; each suite's `after` calls it (a root `after` would run after every file's tests). */
const stopServers = async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
};

describe('stdio features: bash-language-server', function () {
  after(stopServers);
  this.timeout(90_000);
  const bash = () => server({ id: 'bash', command: bin('bash-language-server'), args: ['start'], extensions: { '.sh': 'shellscript' } });

  it('workspace/symbol finds a function by name in a file never opened; documentSymbol gives the outline', async () => {
    const f = bash();
    const outline = await f.documentSymbols(uri('sh/lib.sh'), 'shellscript', ctx());
    assert.deepEqual(
      outline.map((s) => [s.name, s.kind, s.selectionRange.start.line]),
      [['greet', 'Function', 3]],
    );
    // The server indexes the workspace in the background after it starts.
    const found = await until(
      'workspace symbols for greet',
      async () => {
        const symbols = (await f.workspaceSymbols('greet', ctx())).map(
          (s) => `${s.name} ${s.kind} ${rel(s.uri)}:${s.range.start.line + 1}`,
        );
        return symbols.length > 0 && symbols;
      },
      20_000,
      250,
    );
    assert.deepEqual(found, ['greet Function sh/lib.sh:4']);
  });

  it('call hierarchy is unsupported by that server, and the error names it and the method', async () => {
    const f = bash();
    await assert.rejects(f.prepare(uri('sh/main.sh'), 'shellscript', { line: 4, character: 0 }, ctx()), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'unsupported');
      assert.match(
        e.message,
        /language server 'bash' does not support textDocument\/prepareCallHierarchy \(it does not announce callHierarchyProvider/,
      );
      return true;
    });
  });
});

describe('stdio features: typescript-language-server', function () {
  after(stopServers);
  this.timeout(240_000);
  // A generous bound: on a loaded machine tsserver takes tens of seconds to load the project.
  const ts = () =>
    server({
      id: 'tsls',
      command: bin('typescript-language-server'),
      args: ['--stdio'],
      extensions: { '.ts': 'typescript' },
      readyTimeoutMs: 90_000,
    });
  const broken = path.join(WS, 'ts/diag-stdio/broken.ts');
  afterEach(() => fs.rmSync(path.dirname(broken), { recursive: true, force: true }));

  it('incoming and outgoing calls across two files; the outline nests classes', async () => {
    const f = ts();
    const [leaf] = await f.prepare(uri('ts/calls/lib.ts'), 'typescript', { line: 0, character: 16 }, ctx());
    assert.equal(leaf?.name, 'leaf');
    const names = (n: CallTreeNode): string[] =>
      (n.calls ?? []).map(
        (c) =>
          `${c.item.name} ${rel(c.item.uri)} sites ${c.sites!.ranges.map((r) => `${rel(c.sites!.uri)}:${r.start.line + 1}`).join(',')}`,
      );
    const incoming = await walkCalls(f, leaf, { direction: 'incoming', depth: 1 }, ctx());
    assert.deepEqual(names(incoming.root).sort(), [
      'computeTotalPrice ts/calls/main.ts sites ts/calls/main.ts:4',
      'middle ts/calls/lib.ts sites ts/calls/lib.ts:6',
    ]);
    const [main] = await f.prepare(uri('ts/calls/main.ts'), 'typescript', { line: 2, character: 16 }, ctx());
    const outgoing = await walkCalls(f, main!, { direction: 'outgoing', depth: 1 }, ctx());
    assert.deepEqual(names(outgoing.root).sort(), [
      'leaf ts/calls/lib.ts sites ts/calls/main.ts:4',
      'middle ts/calls/lib.ts sites ts/calls/main.ts:4',
    ]);
    const outline = await f.documentSymbols(uri('ts/outline/shapes.ts'), 'typescript', ctx());
    const geometry = outline.find((s) => s.name === 'Geometry');
    assert.deepEqual(
      geometry?.children
        ?.filter((c) => c.kind === 'Class')
        .map((c) => c.name)
        .sort(),
      ['Circle', 'Shape'],
    );
  });

  it('pushed diagnostics: a type error after opening the file, settled; the fixed file has none', async () => {
    const f = ts();
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, "export const n: number = 'text';\n");
    const bad = await f.documentDiagnostics(pathToFileURL(broken).href, 'typescript', ctx());
    assert.equal(bad.freshness, 'settled', JSON.stringify(bad));
    assert.deepEqual(
      bad.diagnostics.map((d) => [d.severity, d.code, d.range.start.line, d.range.start.character]),
      [['error', '2322', 0, 13]],
    );
    fs.writeFileSync(broken, 'export const n: number = 1;\n');
    const fixed = await f.documentDiagnostics(pathToFileURL(broken).href, 'typescript', ctx());
    assert.deepEqual([fixed.freshness, fixed.diagnostics.length], ['settled', 0], JSON.stringify(fixed));
  });
});
