/**
 * User-configured language servers (`dsh.lsp.servers`) through `dsh_lsp` in the real host: real
 * servers from the repository's dev dependencies (bash-language-server for `.sh`,
 * typescript-language-server for `.ts`) configured through the real settings
 * (ConfigurationTarget.Global, restored afterwards), and test/fixtures/lsp-servers/fake-lsp.js for
 * a server that never finishes indexing (L05).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';
import { checkAfterHost } from '../helpers/host/report';

interface Loc {
  path: string;
  line: number;
  column: number;
  isDeclaration?: boolean;
}
interface Answer {
  provider: string;
  position: { line: number; column: number; token: string };
  total: number;
  locations: Loc[];
  hover?: string | null;
}

const SETTING = 'dsh.lsp.servers';
const lsp = async (input: Record<string, unknown>) => (await invokeTool<Answer>('dsh_lsp', input)).json;
const at = (l: Loc) => `${l.path}:${l.line}:${l.column}${l.isDeclaration ? ' decl' : ''}`;
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const repo = () => path.resolve(root(), '../../..');
const bin = (name: string) => path.join(repo(), 'node_modules/.bin', name);
const fake = () => path.join(repo(), 'test/fixtures/lsp-servers/fake-lsp.js');
const lineOf = (rel: string, n: number) => fs.readFileSync(path.join(root(), rel), 'utf8').split(/\r\n|\r|\n/)[n - 1]!;
const colOf = (lineText: string, needle: string) => Array.from(lineText.slice(0, lineText.indexOf(needle))).length + 1;

/** The extension's navigation service (its API), to wait until a setting change took effect. */
function navigation(): { providerFor(uri: string): { providerId: string } | undefined } {
  return (
    vscode.extensions.getExtension('dsh.dsh-bridge')!.exports as {
      navigation: { providerFor(uri: string): { providerId: string } | undefined };
    }
  ).navigation;
}

/** Write `dsh.lsp.servers` (user settings) and wait until `file` is served by `providerId`. */
async function configure(servers: unknown[] | undefined, file: string, providerId: string): Promise<void> {
  await vscode.workspace.getConfiguration().update(SETTING, servers, vscode.ConfigurationTarget.Global);
  const uri = vscode.Uri.file(path.join(root(), file)).toString();
  await until(`${file} to be served by ${providerId}`, () => navigation().providerFor(uri)?.providerId === providerId).catch((e: Error) => {
    throw new Error(`${e.message}; it is served by ${navigation().providerFor(uri)?.providerId}`);
  });
}

describe('dsh_lsp through configured language servers (dsh.lsp.servers)', function () {
  this.timeout(180_000);

  before(async () => {
    await waitForTools(['dsh_lsp']);
    assert.ok(fs.existsSync(bin('bash-language-server')), 'npm install puts bash-language-server in node_modules/.bin');
  });

  // Restoring the setting gives .sh back to the vscode provider (the hook fails if it does not).
  after(async () => {
    await configure(undefined, 'sh/main.sh', 'vscode');
  });

  it('bash-language-server: definition and references of a shell function across two .sh files', async () => {
    await configure(
      [{ id: 'bash', command: bin('bash-language-server'), args: ['start'], extensions: { '.sh': 'shellscript' } }],
      'sh/main.sh',
      'bash',
    );
    const def = await lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 5, column: 1 });
    assert.equal(def.provider, 'bash');
    assert.equal(def.position.token, 'greet');
    assert.deepEqual(def.locations.map(at), ['sh/lib.sh:4:1']);
    const refs = await lsp({ operation: 'findReferences', filePath: 'sh/lib.sh', line: 4, column: 1 });
    assert.deepEqual(refs.locations.map(at).sort(), ['sh/lib.sh:4:1 decl', 'sh/main.sh:5:1', 'sh/main.sh:6:1']);
    const none = await lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 4, column: 3 });
    assert.equal(none.total, 0, 'a comment: no results (an answer, not an error)');
    const hover = await lsp({ operation: 'hover', filePath: 'sh/main.sh', line: 5, column: 1 });
    assert.match(hover.hover ?? '', /greet/);
  });

  it('the server registers nothing into VS Code: executeDefinitionProvider on .sh does not see its answers', async () => {
    const uri = vscode.Uri.file(path.join(root(), 'sh/main.sh'));
    const r = await vscode.commands.executeCommand<unknown[]>('vscode.executeDefinitionProvider', uri, new vscode.Position(4, 0));
    assert.deepEqual(r ?? [], []);
  });

  it('dsh_symbols and dsh_call_hierarchy through bash-language-server: workspace symbol by name, outline, call hierarchy unsupported by that server', async () => {
    type Sym = { name: string; kind: string; path: string; line: number; column: number };
    const symbols = async (input: Record<string, unknown>) =>
      (
        await invokeTool<{
          provider?: string;
          symbols?: Sym[];
          outline?: Sym[];
          sources?: { id: string; count: number; error?: string }[];
        }>('dsh_symbols', input)
      ).json;
    const outline = await symbols({ filePath: 'sh/lib.sh' });
    assert.equal(outline.provider, 'bash');
    assert.deepEqual(
      outline.outline!.map((s) => `${s.kind} ${s.name} ${s.line}:${s.column}`),
      ['Function greet 4:1'],
    );
    // The server indexes the workspace in the background after it starts.
    const found = await until(
      'workspace symbols for greet under sh/',
      async () => {
        const r = await symbols({ query: 'greet' });
        assert.ok(
          r.sources!.some((s) => s.id === 'bash' && !s.error),
          JSON.stringify(r.sources),
        );
        const underSh = r.symbols!.filter((s) => s.path.startsWith('sh/'));
        return underSh.length > 0 && underSh;
      },
      30_000,
      500,
    );
    assert.deepEqual(
      found.map((s) => `${s.kind} ${s.name} ${s.path}:${s.line}`),
      ['Function greet sh/lib.sh:4'],
    );
    await assert.rejects(
      invokeTool('dsh_call_hierarchy', { filePath: 'sh/main.sh', line: 5, column: 1, direction: 'incoming' }),
      /language server 'bash' does not support textDocument\/prepareCallHierarchy \(it does not announce callHierarchyProvider/,
    );
  });

  it('the effective configuration shows the server, its extensions and its state', async () => {
    const config = await vscode.commands.executeCommand<{
      navigationProviders: { id: string; extensions: string[] }[];
      languageServers: { servers: { id: string; state: string }[]; errors: string[] };
      settings: Record<string, { source: string }>;
    }>('dsh.showEffectiveConfiguration');
    assert.deepEqual(config.navigationProviders.find((p) => p.id === 'bash')?.extensions, ['.sh (shellscript)']);
    assert.ok(
      !config.navigationProviders.find((p) => p.id === 'vscode')?.extensions.includes('.sh (shellscript)'),
      'the vscode fallback gave .sh up',
    );
    assert.deepEqual(
      config.languageServers.servers.map((s) => `${s.id} ${s.state}`),
      ['bash running'],
    );
    assert.equal(config.settings[SETTING]?.source, 'user');
    await vscode.commands.executeCommand('workbench.action.closeEditorsInGroup');
  });

  describe('typescript-language-server agrees with the vscode provider', () => {
    const l14 = 'ts/unicode/l14.ts';
    const cases: [string, () => Record<string, unknown>][] = [
      ['L02 definition', () => ({ operation: 'goToDefinition', filePath: 'ts/l02.ts', line: 2, column: 1 })],
      ['L10 references', () => ({ operation: 'findReferences', filePath: 'ts/l10/a.ts', line: 1, column: 17 })],
      [
        'L14 definition after an emoji',
        () => ({ operation: 'goToDefinition', filePath: l14, line: 2, column: colOf(lineOf(l14, 2), '${l}') + 2 }),
      ],
      ['L14 references', () => ({ operation: 'findReferences', filePath: l14, line: 1, column: 7 })],
      ['L14 definition after CJK', () => ({ operation: 'goToDefinition', filePath: l14, line: 6, column: colOf(lineOf(l14, 6), '名前') })],
      [
        'L15 definition after °',
        () => ({ operation: 'goToDefinition', filePath: l14, line: 4, column: colOf(lineOf(l14, 4), 'clk'), symbol: 'clk' }),
      ],
    ];
    const expected: Record<string, string[]> = {
      'L02 definition': ['ts/l02.ts:1:17'],
      'L10 references': ['ts/l10/a.ts:1:17 decl', 'ts/l10/b.ts:1:9', 'ts/l10/b.ts:2:1'],
      'L14 definition after an emoji': [`${l14}:1:7`],
      'L14 references': [`${l14}:1:7 decl`, `${l14}:2:${colOf(lineOf(l14, 2), '${l}') + 2}`],
      'L14 definition after CJK': [`${l14}:5:7`],
      'L15 definition after °': [`${l14}:3:5`],
    };
    const byVsCode = new Map<string, Answer>();

    before(async () => {
      await configure(undefined, 'ts/l02.ts', 'vscode');
      for (const [name, input] of cases) byVsCode.set(name, await lsp(input()));
      await configure(
        [{ id: 'tsls', command: bin('typescript-language-server'), args: ['--stdio'], extensions: { '.ts': 'typescript' } }],
        'ts/l02.ts',
        'tsls',
      );
    });

    for (const [name, input] of cases) {
      it(name, async () => {
        const vs = byVsCode.get(name)!;
        const ts = await lsp(input());
        assert.equal(vs.provider, 'vscode');
        assert.equal(ts.provider, 'tsls');
        assert.deepEqual(vs.locations.map(at), expected[name]);
        assert.deepEqual(ts.locations.map(at), vs.locations.map(at));
        assert.deepEqual(ts.position, vs.position);
      });
    }
  });

  it('a missing binary: a clear error naming the setting; a bad entry does not stop a good one', async () => {
    await configure(
      [
        { id: 'bad id!', command: 'x', extensions: { '.sh': 'shellscript' } },
        { id: 'missing', command: '/nonexistent/dsh-test/language-server', extensions: { '.sh': 'shellscript' } },
      ],
      'sh/main.sh',
      'missing',
    );
    await assert.rejects(
      lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 5, column: 1 }),
      /language server 'missing' could not start: .*\/nonexistent\/dsh-test\/language-server.*dsh\.lsp\.servers/,
    );
  });

  it('L05 for the stdio provider: a server still indexing is "not ready", an empty answer from a ready one is "none"', async () => {
    await configure(
      [
        {
          id: 'indexing',
          command: process.execPath,
          args: [fake(), '--never-ready'],
          extensions: { '.sh': 'shellscript' },
          readyTimeoutMs: 2000,
        },
      ],
      'sh/main.sh',
      'indexing',
    );
    await assert.rejects(
      lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 5, column: 1 }),
      /language support for \.sh \(language server 'indexing'\) is not available or not ready/,
    );
    await configure(
      [{ id: 'ready', command: process.execPath, args: [fake()], extensions: { '.sh': 'shellscript' } }],
      'sh/main.sh',
      'ready',
    );
    const none = await lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 5, column: 1 });
    assert.equal(none.provider, 'ready');
    assert.equal(none.total, 0);
  });
});

describe('a configured language server when the extension host stops', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate();
  });

  // Left configured on purpose (the last files of the suite do not navigate .sh): the check runs
  // in the launcher once the host has stopped.
  it('is asked to shut down and is gone once the host stopped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-server-stop-'));
    const pidFile = path.join(dir, 'pid');
    const methods = path.join(dir, 'methods.log');
    const args = [fake(), '--pid', pidFile, '--log', methods];
    await configure([{ id: 'stopping', command: process.execPath, args, extensions: { '.sh': 'shellscript' } }], 'sh/main.sh', 'stopping');
    const none = await lsp({ operation: 'goToDefinition', filePath: 'sh/main.sh', line: 5, column: 1 });
    assert.equal(none.provider, 'stopping');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.ok(Number.isInteger(pid) && pid > 0, `the server wrote no pid to ${pidFile}`);
    checkAfterHost({
      title: `the configured language server (pid ${pid}) got shutdown and is gone`,
      pid,
      file: methods,
      lines: ['shutdown'],
    });
  });
});
