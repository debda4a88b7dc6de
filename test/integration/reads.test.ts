/**
 * Navigation reads only what it should, in a trusted workspace: `dsh_lsp` refuses FIFOs, devices,
 * `/proc` files and files over the cap promptly (on special files made in a temp folder inside the
 * fixture workspace); a file whose real path is outside the workspace is read only after the
 * confirmation `prepareInvocation` asks (checked directly: in extension-test mode VS Code answers
 * confirmations yes without showing them); previews of locations outside the workspace are shown
 * only in a call the user confirmed; the wiki-link index skips a linked `/proc/self/environ` and a
 * FIFO note and says so in the log.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LspTool, LspToolInput } from '../../src/vscode/tools/navigation/lspTool';
import type { LspService } from '../../src/lsp/service';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { mkfifo, releaseFifo } from '../helpers/files';
import { until, within } from '../helpers/wait';

interface Answer {
  file: string;
  position: { lineText: string };
  locations?: { path: string; line: number; preview: string; previewWithheld?: string; external?: boolean }[];
  previewsWithheld?: string;
  hover?: string | null;
}

const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const lsp = async (input: Record<string, unknown>) => (await invokeTool<Answer>('dsh_lsp', input)).json;
const token = () => new vscode.CancellationTokenSource().token;

/** One entry of this host's environment, as /proc/self/environ holds it: it must reach no answer. */
const envEntry = () =>
  fs
    .readFileSync('/proc/self/environ', 'utf8')
    .split('\0')
    .find((e) => e.length > 6) ?? 'PATH=';

describe('navigation reads only what it should (trusted workspace)', function () {
  this.timeout(60_000);
  let tmp: string; // inside the workspace: dsh-reads-*
  let outside: string; // outside it
  let tool: LspTool;
  const fifos: string[] = [];
  const rel = (name: string) => path.relative(root(), path.join(tmp, name)).split(path.sep).join('/');

  before(async () => {
    await waitForTools(['dsh_lsp']);
    const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as { navigation: LspService };
    tool = new LspTool(api.navigation);
    tmp = fs.mkdtempSync(path.join(root(), 'dsh-reads-')); // not under ts/: the TypeScript project there must never see these files
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-reads-out-')));
    fs.writeFileSync(path.join(outside, 'secret.ts'), 'export const secretValue = 42;\n');
    fs.symlinkSync('/proc/self/environ', path.join(tmp, 'env.ts'));
    fs.symlinkSync('/dev/zero', path.join(tmp, 'zero.ts'));
    fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(tmp, 'linked.ts'));
    for (const name of ['pipe.ts', 'p1.ts', 'p2.ts', 'p3.ts', 'p4.ts']) {
      mkfifo(path.join(tmp, name));
      fifos.push(path.join(tmp, name));
    }
    fs.writeFileSync(path.join(tmp, 'big.ts'), '');
    fs.truncateSync(path.join(tmp, 'big.ts'), 8 * 1024 * 1024 + 1);
    fs.writeFileSync(path.join(tmp, 'inside.ts'), 'export const insideValue = 1;\n');
    fs.writeFileSync(path.join(tmp, 'probe-inside.md'), '[[another note]]\n');
  });

  after(() => {
    fifos.forEach(releaseFifo);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a workspace link to /proc/self/environ is refused, and nothing of the environment is in the error', async () => {
    const err = await within(
      20_000,
      'dsh_lsp on env.ts',
      lsp({ operation: 'hover', filePath: rel('env.ts'), line: 1, column: 1 }).then(
        () => undefined,
        (e: Error) => e,
      ),
    );
    assert.match(
      String(err?.message),
      /real path \/proc\/\d+\/environ\) is a kernel pseudo-file under \/proc: navigation does not read \/proc or \/sys files/,
    );
    assert.ok(!String(err?.message).includes(envEntry()));
  });

  it('a FIFO named a.ts is refused promptly; four at once do not block the host', async () => {
    await within(
      20_000,
      'dsh_lsp on a FIFO',
      assert.rejects(
        lsp({ operation: 'hover', filePath: rel('pipe.ts'), line: 1, column: 1 }),
        /pipe\.ts is a FIFO \(named pipe\): navigation reads regular files only/,
      ),
    );
    const four = ['p1.ts', 'p2.ts', 'p3.ts', 'p4.ts'].map((n) =>
      lsp({ operation: 'goToDefinition', filePath: rel(n), line: 1, column: 1 }).then(
        () => 'answered',
        (e: Error) => e.message,
      ),
    );
    const outcomes = await within(20_000, 'four dsh_lsp calls on FIFOs', Promise.all(four));
    outcomes.forEach((o) => assert.match(o, /is a FIFO/));
    // File reads of the whole host still work (md-links reads notes through vscode.workspace.fs and Node).
    const r = await within(
      30_000,
      'a wiki-link definition after the FIFOs',
      lsp({ operation: 'goToDefinition', filePath: 'vault/one note.md', line: 3, column: 17 }),
    );
    assert.deepEqual(
      r.locations?.map((l) => `${l.path}:${l.line}`),
      ['vault/another note.md:1'],
    );
    assert.equal(
      (await lsp({ operation: 'goToDefinition', filePath: rel('probe-inside.md'), line: 1, column: 3 })).position.lineText,
      '[[another note]]',
    );
  });

  it('a link to /dev/zero is refused as a device; a file over 8 MiB is refused naming the cap', async () => {
    await within(
      20_000,
      'dsh_lsp on /dev/zero',
      assert.rejects(lsp({ operation: 'hover', filePath: rel('zero.ts'), line: 1, column: 1 }), /\/dev\/zero\) is a character device/),
    );
    await assert.rejects(
      lsp({ operation: 'hover', filePath: rel('big.ts'), line: 1, column: 1 }),
      /larger than 8388608 bytes: navigation reads files up to 8 MiB/,
    );
  });

  it('an absolute path outside the workspace: prepareInvocation asks, naming the real path', async () => {
    const file = path.join(outside, 'secret.ts');
    const input: LspToolInput = { operation: 'hover', filePath: file, line: 1, column: 14 };
    const prepared = await tool.prepareInvocation({ input }, token());
    assert.equal(prepared.confirmationMessages?.title, 'Read a file outside the workspace?');
    const message = prepared.confirmationMessages.message as vscode.MarkdownString;
    assert.ok(message.value.includes('\n' + file + '\n'), message.value);
    assert.match(message.value, /outside every workspace folder/);
    assert.doesNotMatch(message.value, /symbolic link/);
  });

  it('a ../ path and a workspace symlink leading outside are asked for too; the symlink is named', async () => {
    const file = path.join(outside, 'secret.ts');
    const up = path.relative(root(), file).split(path.sep).join('/');
    assert.ok(up.startsWith('../'));
    const viaUp = await tool.prepareInvocation({ input: { operation: 'hover', filePath: up, line: 1, column: 14 } }, token());
    assert.ok((viaUp.confirmationMessages?.message as vscode.MarkdownString).value.includes(file));
    const viaLink = await tool.prepareInvocation(
      { input: { operation: 'hover', filePath: rel('linked.ts'), line: 1, column: 14 } },
      token(),
    );
    const value = (viaLink.confirmationMessages?.message as vscode.MarkdownString).value;
    assert.ok(value.includes('\n' + file + '\n'), value);
    assert.match(value, /through a symbolic link/);
    assert.ok(value.includes(path.join(tmp, 'linked.ts')), value);
    const inside = await tool.prepareInvocation(
      { input: { operation: 'hover', filePath: rel('inside.ts'), line: 1, column: 14 } },
      token(),
    );
    assert.equal(inside.confirmationMessages, undefined, 'no question for a workspace file');
  });

  it('invoke without the confirmation refuses; through vscode.lm.invokeTool (confirmed) it reads', async () => {
    const input = { operation: 'hover' as const, filePath: path.join(outside, 'secret.ts'), line: 1, column: 14 };
    // The consent prepareInvocation records (VS Code then shows its question) is the tool object's own.
    const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as { navigation: LspService };
    const prepared = new LspTool(api.navigation);
    await prepared.prepareInvocation({ input }, token());
    const unprepared = new LspTool(api.navigation);
    await assert.rejects(
      unprepared.invoke({ input, toolInvocationToken: undefined }, token()),
      /secret\.ts is outside the workspace .*needs the user's confirmation/,
    );
    // The consent is used once, by this same input.
    assert.equal(
      (
        (await prepared.invoke({ input, toolInvocationToken: undefined }, token())).content[0] as vscode.LanguageModelTextPart
      ).value.includes('secretValue'),
      true,
    );
    await assert.rejects(
      prepared.invoke({ input, toolInvocationToken: undefined }, token()),
      /needs the user's confirmation/,
      'a consent is used once',
    );
    const r = await lsp(input);
    assert.equal(r.position.lineText, 'export const secretValue = 42;');
  });

  describe('previews of locations outside the workspace', () => {
    let reg: vscode.Disposable | undefined;
    before(async () => {
      fs.writeFileSync(path.join(tmp, 'probe.dshr'), 'probe\n');
      const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as {
        navigation: { registerProvider(p: unknown): vscode.Disposable };
      };
      const secret = vscode.Uri.file(path.join(outside, 'secret.ts')).toString();
      reg = api.navigation.registerProvider({
        id: 'test-reads',
        extensions: { '.dshr': 'plaintext' },
        query: async (req: { operation: string; uri: string; workspaceUri: string }) =>
          req.operation === 'hover'
            ? { kind: 'hover', contents: null }
            : {
                kind: 'locations',
                locations: [
                  { uri: secret, range: { start: { line: 0, character: 13 }, end: { line: 0, character: 24 } } },
                  { uri: req.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } } },
                ],
                resolvedWorkspaceUri: req.workspaceUri,
              },
      });
    });
    after(() => {
      reg?.dispose();
    });

    it('left out of a call that read only workspace files, counted, with the reason and how to ask', async () => {
      const r = await lsp({ operation: 'goToDefinition', filePath: rel('probe.dshr'), line: 1, column: 1 });
      assert.deepEqual(
        r.locations!.map((l) => [l.path, l.preview]),
        [[rel('probe.dshr'), 'probe']],
      );
      const outsideWorkspace = (r as { outsideWorkspace?: { leftOut: number; why: string } }).outsideWorkspace;
      assert.equal(outsideWorkspace?.leftOut, 1);
      assert.match(outsideWorkspace?.why ?? '', /call dsh_lsp on a file outside the workspace: VS Code asks/);
      assert.ok(!JSON.stringify(r).includes('secret'));
    });

    it('shown in a call the user confirmed for a file outside', async () => {
      const probe = path.join(outside, 'probe.dshr');
      fs.writeFileSync(probe, 'outside probe\n');
      const r = await lsp({ operation: 'goToDefinition', filePath: probe, line: 1, column: 1 });
      assert.deepEqual(
        r.locations!.map((l) => [path.basename(l.path), l.preview, l.previewWithheld]),
        [
          ['probe.dshr', 'outside probe', undefined],
          ['secret.ts', 'export const secretValue = 42;', undefined],
        ],
      );
    });
  });

  describe('the wiki-link index', () => {
    let vaultTmp: string;
    before(() => {
      vaultTmp = fs.mkdtempSync(path.join(root(), 'vault', 'dsh-reads-'));
    });
    after(() => {
      fifos.forEach(releaseFifo);
      fs.rmSync(vaultTmp, { recursive: true, force: true });
    });

    it('a note linked to /proc/self/environ and a FIFO note are skipped, said so in the log, and the index keeps answering', async () => {
      const relVault = (n: string) => path.relative(root(), path.join(vaultTmp, n)).split(path.sep).join('/');
      fs.writeFileSync(path.join(vaultTmp, 'links.md'), '[[dsh reads env]] [[dsh reads pipe]] [[one note]]\n');
      fs.symlinkSync('/proc/self/environ', path.join(vaultTmp, 'dsh reads env.md'));
      fifos.push(mkfifo(path.join(vaultTmp, 'dsh reads pipe.md')));
      // A query builds the index if none exists yet; one that exists takes the new files from the
      // file watcher. Either way both skips reach the log before the links to them are queried.
      const def = await within(
        20_000,
        'definition of [[one note]]',
        lsp({ operation: 'goToDefinition', filePath: relVault('links.md'), line: 1, column: 41 }),
      );
      assert.deepEqual(
        def.locations?.map((l) => l.path),
        ['vault/one note.md'],
      );
      const userData = process.env.DSH_USER_DATA_DIR!;
      const logText = () => {
        const log = (fs.readdirSync(userData, { recursive: true }) as string[]).find((f) => /DSH Bridge\.log$/.test(f));
        return log ? fs.readFileSync(path.join(userData, log), 'utf8') : '';
      };
      const skipped = [/md-links: skipped .*dsh%20reads%20env\.md: .*under \/proc/, /md-links: skipped .*dsh%20reads%20pipe\.md: .*FIFO/];
      const text = await until(
        `both skips in the extension's log under ${userData}`,
        () => {
          const t = logText();
          return skipped.every((re) => re.test(t)) && t;
        },
        20_000,
      );
      const env = await within(
        20_000,
        'definition of [[dsh reads env]]',
        lsp({ operation: 'goToDefinition', filePath: relVault('links.md'), line: 1, column: 3 }),
      );
      assert.equal(env.locations?.[0]?.path, relVault('links.md'), 'unresolved: the link itself');
      const hover = await within(
        20_000,
        'hover on [[dsh reads env]]',
        lsp({ operation: 'hover', filePath: relVault('links.md'), line: 1, column: 3 }),
      );
      assert.ok(!JSON.stringify([env, hover]).includes(envEntry()), 'nothing of the environment');
      assert.ok(!text.includes(envEntry()) && !logText().includes(envEntry()), 'nothing of the environment in the log');
    });
  });
});
