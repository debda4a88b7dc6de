// Configured language servers while the agent sandbox is on (src/lsp/stdio/launchGuard.ts): a server
// DSH Bridge would start outside the sandbox from a folder sandboxed commands can write (the
// workspace, an allowWrite folder) is refused, with real files, links and PATH folders; servers
// outside those folders start as before. Each server program here is a shell script that leaves a
// marker file when it runs, then runs test/fixtures/lsp-servers/fake-lsp.js: a refused one must
// leave none.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as protocol from 'vscode-languageserver-protocol/node';
import { StdioServerConfig } from '../../../src/lsp/stdio/config';
import { StdioLspProvider, StdioProviderOptions } from '../../../src/lsp/stdio/provider';
import { isLspError, LspError } from '../../../src/lsp/types';

const ROOT = path.resolve(__dirname, '../../..');
const FAKE = path.join(ROOT, 'test/fixtures/lsp-servers/fake-lsp.js');

let root: string;
/** The workspace folder: sandboxed commands can write it. */
let ws: string;
/** A folder sandboxed commands cannot write. */
let safe: string;
/** Where the programs leave their markers (outside both). */
let marks: string;
const providers: StdioLspProvider[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-lsp-sandbox-')));
  ws = path.join(root, 'ws');
  safe = path.join(root, 'safe');
  marks = path.join(root, 'marks');
  for (const d of [ws, safe, marks]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(ws, 'main.sh'), 'echo hi\n');
});

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.stop()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** An executable script at `file` that leaves the marker `name` and runs the fake server. */
function server(file: string, name: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(marks, name)}'\nexec '${process.execPath}' '${FAKE}' "$@"\n`, { mode: 0o755 });
  return file;
}

/** An executable script at `file` that only leaves the marker `name` (a program that must never run). */
function trap(file: string, name: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(marks, name)}'\nexit 1\n`, { mode: 0o755 });
  return file;
}

const ran = (name: string) => fs.existsSync(path.join(marks, name));

function provider(
  config: Partial<StdioServerConfig> & { command: string },
  writable: readonly string[] | undefined,
  options: Partial<StdioProviderOptions> = {},
): StdioLspProvider {
  const p = new StdioLspProvider(
    { id: 'srv', args: [], extensions: { '.sh': 'shellscript' }, readyTimeoutMs: 5000, ...config },
    { protocol, workspaceUri: pathToFileURL(ws).href, settleMs: 50, writableWhileSandboxed: async () => writable, ...options },
  );
  providers.push(p);
  return p;
}

const hover = (p: StdioLspProvider) =>
  p.query(
    {
      operation: 'hover',
      uri: pathToFileURL(path.join(ws, 'main.sh')).href,
      position: { line: 0, character: 0 },
      languageId: 'shellscript',
      workspaceUri: pathToFileURL(ws).href,
    },
    new AbortController().signal,
  );

/** The refusal of `p`'s first query, checked for the code, the reason and the advice. */
async function refusal(p: StdioLspProvider): Promise<LspError> {
  const e = await hover(p).then(
    () => assert.fail('the server should have been refused'),
    (error: unknown) => error,
  );
  assert.ok(isLspError(e), String(e));
  assert.equal(e.code, 'no_provider', e.message);
  assert.equal(e.details.reason, 'sandbox_writable', e.message);
  assert.match(e.message, /language server 'srv'/);
  assert.match(e.message, /absolute path outside the folders sandboxed commands can write/);
  assert.match(e.message, /turn the agent sandbox off/);
  assert.equal(p.starts, 0);
  return e;
}

describe('dsh.lsp.servers while the agent sandbox is on', () => {
  it('a workspace-relative command is not started; the answer names the server, the path and the folder', async () => {
    server(path.join(ws, 'node_modules/.bin/some-server'), 'relative');
    const e = await refusal(provider({ command: './node_modules/.bin/some-server' }, [ws]));
    assert.ok(e.message.includes(path.join(ws, 'node_modules/.bin/some-server')), e.message);
    assert.ok(e.message.includes(`folder ${ws}`), e.message);
    assert.equal(e.details.path, path.join(ws, 'node_modules/.bin/some-server'));
    assert.equal(e.details.folder, ws);
    assert.equal(ran('relative'), false);
  });

  it('the same server starts as before while the sandbox is off, and one outside the writable folders starts while it is on', async () => {
    server(path.join(ws, 'node_modules/.bin/some-server'), 'relative');
    assert.equal((await hover(provider({ command: './node_modules/.bin/some-server' }, undefined))).kind, 'hover');
    assert.equal(ran('relative'), true);
    server(path.join(safe, 'bin/some-server'), 'safe');
    const p = provider({ id: 'safe', command: path.join(safe, 'bin/some-server'), args: ['--stdio'] }, [ws]);
    assert.equal((await hover(p)).kind, 'hover');
    assert.equal(ran('safe'), true);
    assert.equal(p.starts, 1);
  });

  it('an absolute path with .. segments into the workspace, and an allowWrite folder, are refused', async () => {
    server(path.join(ws, 'srv'), 'dotdot');
    await refusal(provider({ command: `${safe}/../ws/srv` }, [ws]));
    const extra = path.join(root, 'extra');
    server(path.join(extra, 'srv'), 'extra');
    const e = await refusal(provider({ command: path.join(extra, 'srv') }, [ws, extra]));
    assert.ok(e.message.includes(`folder ${extra}`), e.message);
    assert.equal(ran('dotdot') || ran('extra'), false);
  });

  it('a link from a safe folder to a writable one, and a link in a writable folder on the way to a safe program, are refused', async () => {
    server(path.join(ws, 'real-srv'), 'linked');
    fs.mkdirSync(path.join(safe, 'bin'));
    fs.symlinkSync(path.join(ws, 'real-srv'), path.join(safe, 'bin/srv'));
    const e = await refusal(provider({ command: path.join(safe, 'bin/srv') }, [ws]));
    assert.ok(e.message.includes(path.join(ws, 'real-srv')), e.message);
    // safe/bin/hop -> ws/hop -> safe/real: the program is safe, but the link in the workspace can be pointed elsewhere.
    server(path.join(safe, 'real'), 'hop');
    fs.symlinkSync(path.join(safe, 'real'), path.join(ws, 'hop'));
    fs.symlinkSync(path.join(ws, 'hop'), path.join(safe, 'bin/hop'));
    const hop = await refusal(provider({ command: path.join(safe, 'bin/hop') }, [ws]));
    assert.ok(hop.message.includes(path.join(ws, 'hop')), hop.message);
    // A folder link: safe/tools -> ws/tools.
    server(path.join(ws, 'tools/srv'), 'folder-link');
    fs.symlinkSync(path.join(ws, 'tools'), path.join(safe, 'tools'));
    await refusal(provider({ command: path.join(safe, 'tools/srv') }, [ws]));
    assert.equal(ran('linked') || ran('hop') || ran('folder-link'), false);
  });

  it("a name found in a PATH folder inside the workspace is refused, naming that folder; PATH folders there are left out of the server's own PATH", async () => {
    server(path.join(ws, '.venv/bin/py-server'), 'venv');
    const PATH = [path.join(ws, '.venv/bin'), path.join(safe, 'bin'), '/usr/bin', '/bin'].join(path.delimiter);
    const e = await refusal(provider({ command: 'py-server' }, [ws], { env: { ...process.env, PATH } }));
    assert.ok(e.message.includes(path.join(ws, '.venv/bin/py-server')), e.message);
    assert.equal(ran('venv'), false);
    // A safe server started by name: the shell that guards it (bash) and what it starts by name come from past the workspace's folder.
    server(path.join(safe, 'bin/py-server2'), 'safe-by-name');
    trap(path.join(ws, '.venv/bin/bash'), 'bash');
    trap(path.join(ws, '.venv/bin/sh'), 'sh');
    const p = provider({ id: 'named', command: 'py-server2' }, [ws], { env: { ...process.env, PATH } });
    assert.equal((await hover(p)).kind, 'hover');
    assert.equal(ran('safe-by-name'), true);
    assert.equal(ran('bash') || ran('sh'), false, 'the watchdog shell came from the workspace');
  });

  it('a script whose interpreter (#! line, or #!/usr/bin/env NAME on PATH) lies in a writable folder is refused', async () => {
    trap(path.join(ws, 'interp'), 'interp');
    fs.mkdirSync(path.join(safe, 'bin'));
    fs.writeFileSync(path.join(safe, 'bin/direct'), `#!${path.join(ws, 'interp')}\n`, { mode: 0o755 });
    const e = await refusal(provider({ command: path.join(safe, 'bin/direct') }, [ws]));
    assert.ok(e.message.includes(path.join(ws, 'interp')), e.message);
    // #!/usr/bin/env NAME, NAME only in a PATH folder in the workspace.
    trap(path.join(ws, 'bin/ws-interp'), 'env-interp');
    fs.writeFileSync(path.join(safe, 'bin/via-env'), '#!/usr/bin/env ws-interp\n', { mode: 0o755 });
    const PATH = [path.join(ws, 'bin'), '/usr/bin', '/bin'].join(path.delimiter);
    const viaEnv = await refusal(provider({ command: path.join(safe, 'bin/via-env') }, [ws], { env: { ...process.env, PATH } }));
    assert.ok(viaEnv.message.includes(path.join(ws, 'bin/ws-interp')), viaEnv.message);
    assert.equal(ran('interp') || ran('env-interp'), false);
  });

  it('args naming a script or file in a writable folder are refused (node ./server.js), other args are not', async () => {
    fs.copyFileSync(FAKE, path.join(ws, 'server.js'));
    const e = await refusal(provider({ command: process.execPath, args: ['./server.js', '--stdio'] }, [ws]));
    assert.ok(e.message.includes(path.join(ws, 'server.js')), e.message);
    assert.match(e.message, /argument/);
    await refusal(provider({ command: process.execPath, args: [`--require=${path.join(ws, 'server.js')}`, FAKE] }, [ws]));
    // Not there yet: a sandboxed command could still write it.
    await refusal(provider({ command: process.execPath, args: ['later.js'] }, [ws]));
    const p = provider({ id: 'plain', command: process.execPath, args: [FAKE, '--stdio', 'start'] }, [ws]);
    assert.equal((await hover(p)).kind, 'hover');
  });

  it("an interpreter's script named without a path (node server), and python -m, are refused: both are taken from the workspace folder, even made later", async () => {
    // Neither exists yet: node would run server.js and python the module once a sandboxed command writes them.
    const e = await refusal(provider({ command: process.execPath, args: ['--no-warnings', 'server'] }, [ws]));
    assert.ok(e.message.includes(path.join(ws, 'server')), e.message);
    const python = ['/usr/bin/python3', '/usr/local/bin/python3'].find((p) => fs.existsSync(p));
    if (python) {
      const m = await refusal(provider({ command: python, args: ['-m', 'pylsp'] }, [ws]));
      assert.ok(m.message.includes(path.join(ws, 'pylsp')), m.message);
    }
    // A server that is no interpreter keeps its plain words (bash-language-server start).
    server(path.join(safe, 'bin/words-server'), 'words');
    assert.equal(
      (await hover(provider({ id: 'words', command: path.join(safe, 'bin/words-server'), args: ['start'] }, [ws]))).kind,
      'hover',
    );
  });

  it('the rule is checked at every start: turned on after the server started, it refuses the restart after a crash', async () => {
    server(path.join(ws, 'srv'), 'later');
    const sandbox: { writable?: readonly string[] } = {};
    const p = provider({ command: './srv' }, undefined, {
      writableWhileSandboxed: async () => sandbox.writable,
      crashPolicy: { baseDelayMs: 50 },
    });
    assert.equal((await hover(p)).kind, 'hover');
    assert.equal(p.starts, 1);
    fs.rmSync(path.join(marks, 'later'));
    sandbox.writable = [ws];
    process.kill(-p.pgid!, 'SIGKILL');
    const e = await hover(p).then(
      () => assert.fail('the restart should have been refused'),
      (error: unknown) => error,
    );
    assert.ok(isLspError(e) && e.details.reason === 'sandbox_writable', String(e));
    assert.equal(p.starts, 1);
    assert.equal(ran('later'), false);
  });

  it('a server refused or unable to start says why where it is described (startError), until a start succeeds', async () => {
    server(path.join(ws, 'srv'), 'described');
    const sandbox: { writable?: readonly string[] } = { writable: [ws] };
    const p = provider({ command: './srv' }, undefined, { writableWhileSandboxed: async () => sandbox.writable });
    assert.equal(p.startError, undefined);
    await refusal(p);
    assert.equal(p.state, 'idle');
    assert.match(p.startError ?? '', /sandboxed commands can write/);
    sandbox.writable = undefined;
    assert.equal((await hover(p)).kind, 'hover');
    assert.equal(p.startError, undefined);
    const missing = provider({ command: path.join(safe, 'no-such-server') }, undefined);
    await hover(missing).catch(() => undefined);
    assert.match(missing.startError ?? '', /no-such-server/);
  });
});
