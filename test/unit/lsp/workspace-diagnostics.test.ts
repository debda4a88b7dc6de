// dsh_diagnostics and dsh_symbols for the whole workspace (src/lsp/features/workspaceDiagnostics.ts,
// workspaceSymbols.ts): a source that answers for the whole workspace (a configured stdio server,
// VS Code) is asked once, however many folders the window has; a source that answers per folder
// (the md-links index) is asked once per folder. The real stdio client runs the test server
// test/fixtures/lsp-servers/fake-lsp.js (pull diagnostics, every method it receives logged), the
// real md-links provider indexes two vaults on disk, behind a real LspService and FeatureRegistry.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as protocol from 'vscode-languageserver-protocol/node';
import { FeatureRegistry } from '../../../src/lsp/features/registry';
import { gatherWorkspaceDiagnostics } from '../../../src/lsp/features/workspaceDiagnostics';
import { gatherWorkspaceSymbols } from '../../../src/lsp/features/workspaceSymbols';
import { LspService } from '../../../src/lsp/service';
import { StdioFeatures } from '../../../src/lsp/stdio/features';
import { StdioLspProvider } from '../../../src/lsp/stdio/provider';
import { MdLinksFeatures } from '../../../src/lsp/wikilinks/features';
import { MdLinksProvider } from '../../../src/lsp/wikilinks/provider';
import { NodeWorkspaceFs } from '../../../src/lsp/wikilinks/nodeFs';

const FAKE = path.resolve(__dirname, '../../fixtures/lsp-servers/fake-lsp.js');

describe('workspace diagnostics: each source asked once for the workspace, or once per folder', function () {
  this.timeout(60_000);
  let dir: string;
  let server: StdioLspProvider | undefined;
  let wiki: MdLinksProvider | undefined;
  afterEach(async () => {
    await server?.stop();
    wiki?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('two folders: the stdio server gets one workspace/diagnostic and one workspace/symbol, md-links answers for both folders; one report per source', async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-wsdiag-')));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    for (const [folder, note] of [
      [a, 'See [[nowhere-a]].\n'],
      [b, 'See [[nowhere-b]].\n'],
    ] as const) {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'note.md'), note);
      fs.writeFileSync(path.join(folder, 'problem.sh'), 'echo\n');
    }
    const log = path.join(dir, 'methods.log');
    const folders = [pathToFileURL(a).href, pathToFileURL(b).href];
    const service = new LspService();
    const registry = new FeatureRegistry(service);
    server = new StdioLspProvider(
      {
        id: 'fake',
        command: process.execPath,
        args: [FAKE, '--pull-diagnostics', '--workspace-symbols', '--log', log],
        extensions: { '.sh': 'shellscript' },
      },
      { protocol, workspaceUri: folders[0]!, settleMs: 200 },
    );
    service.registerProvider(server);
    const stdio = new StdioFeatures(server);
    registry.register('diagnostics', stdio);
    registry.register('symbols', stdio);
    wiki = new MdLinksProvider(new NodeWorkspaceFs());
    service.registerProvider(wiki);
    const md = wiki;
    registry.register('diagnostics', new MdLinksFeatures(() => md));
    registry.register('symbols', new MdLinksFeatures(() => md));
    // The server starts on the first request for one of its files.
    await stdio.documentDiagnostics(pathToFileURL(path.join(a, 'problem.sh')).href, 'shellscript', {
      workspaceUri: folders[0]!,
      signal: new AbortController().signal,
    });

    const gathered = await gatherWorkspaceDiagnostics(registry, folders, new AbortController().signal);
    const asked = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((m) => m === 'workspace/diagnostic');
    assert.equal(asked.length, 1, 'the server answers for the whole workspace: asked once, not once per folder');
    const found = gathered.items.map((d) => `${path.relative(dir, new URL(d.uri).pathname)} ${d.message}`).sort();
    assert.deepEqual(found, [
      "a/note.md broken wiki link: no note or file matches 'nowhere-a'",
      'a/problem.sh fake problem',
      "b/note.md broken wiki link: no note or file matches 'nowhere-b'",
    ]);
    assert.deepEqual(
      gathered.sources.map((s) => [s.id, s.count, s.freshness]),
      [
        ['fake', 1, 'settled'],
        ['md-links', 2, 'settled'],
      ],
    );

    const symbols = await gatherWorkspaceSymbols(registry, 'note', undefined, folders, new AbortController().signal);
    const searched = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((m) => m === 'workspace/symbol');
    assert.equal(searched.length, 1, 'workspace/symbol answers for the whole workspace: asked once, not once per folder');
    assert.deepEqual(symbols.scored.map((x) => `${x.symbol.name} ${path.relative(dir, new URL(x.symbol.uri).pathname)}`).sort(), [
      'note a/note.md',
      'note a/problem.sh',
      'note b/note.md',
    ]);
    assert.deepEqual(symbols.sources, [
      { id: 'fake', count: 1 },
      { id: 'md-links', count: 2 },
    ]);
  });
});
