// The stdio provider (src/lsp/stdio/): the dsh.lsp.servers rules, crash backoff, the parent-death
// watchdog (a stand-in host SIGKILLed), and the provider's lifecycle against real servers:
// bash-language-server from npm (lazy start, definition/references across two files, stop on
// dispose) and test/fixtures/lsp-servers/fake-lsp.js for what real servers do not do on demand
// (crash, never finish indexing, log what they receive).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as protocol from 'vscode-languageserver-protocol/node';
import { CrashPolicy } from '../../../src/lsp/stdio/backoff';
import { readStat } from '../../../src/proc/stat';
import { parseServerConfigs, StdioServerConfig } from '../../../src/lsp/stdio/config';
import { StdioLspProvider, StdioProviderOptions } from '../../../src/lsp/stdio/provider';
import { groupStillOurs, resolveCommand, spawnGuarded } from '../../../src/lsp/stdio/watchdog';
import { isLspError, LspOperation } from '../../../src/lsp/types';
import { packageJson } from '../../helpers/packageJson';
import { until } from '../../helpers/wait';
import { alive } from '../../helpers/processes';

const ROOT = path.resolve(__dirname, '../../..');
const WS = path.join(ROOT, 'test/fixtures/workspace');
const WS_URI = pathToFileURL(WS).href;
const FAKE = path.join(ROOT, 'test/fixtures/lsp-servers/fake-lsp.js');
const BASH_LS = path.join(ROOT, 'node_modules/.bin/bash-language-server');

/** Live (non-zombie) processes whose process group is `pgid` (Linux /proc). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const providers: StdioLspProvider[] = [];
function provider(config: Partial<StdioServerConfig> & { command: string }, options: Partial<StdioProviderOptions> = {}): StdioLspProvider {
  const p = new StdioLspProvider(
    { id: 'test', args: [], extensions: { '.sh': 'shellscript' }, ...config },
    { protocol, workspaceUri: WS_URI, settleMs: 200, ...options },
  );
  providers.push(p);
  return p;
}
const query = (
  p: StdioLspProvider,
  operation: LspOperation,
  file: string,
  line: number,
  character: number,
  signal = new AbortController().signal,
) =>
  p.query(
    {
      operation,
      uri: pathToFileURL(path.join(WS, file)).href,
      position: { line, character },
      languageId: 'shellscript',
      workspaceUri: WS_URI,
    },
    signal,
  );
const at = (l: { uri: string; range: { start: { line: number; character: number } }; isDeclaration?: boolean }) =>
  `${path.relative(WS, new URL(l.uri).pathname)}:${l.range.start.line}:${l.range.start.character}${l.isDeclaration ? ' decl' : ''}`;

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.stop()));
});

describe('dsh.lsp.servers validation', () => {
  it('keeps valid entries, skips each bad one with one message naming the setting, the index and the rule', () => {
    const { servers, errors } = parseServerConfigs([
      { id: 'bash', command: 'bash-language-server', args: ['start'], extensions: { '.sh': 'shellscript', '.bash': 'shellscript' } },
      { id: 'bash', command: 'x', extensions: { '.zsh': 'shellscript' } },
      { id: 'ts', command: '', extensions: { '.ts': 'typescript' } },
      { id: 'up', command: 'x', extensions: { '.SH': 'shellscript', py: 'python' } },
      {
        id: 'opts',
        command: 'x',
        args: ['--stdio'],
        extensions: { '.ts': 'typescript' },
        initializationOptions: { a: 1 },
        readyTimeoutMs: 5000,
      },
      { id: 'typo', command: 'x', extension: { '.c': 'c' } },
      'not an object',
    ]);
    assert.deepEqual(
      servers.map((s) => s.id),
      ['bash', 'opts'],
    );
    assert.deepEqual(servers[0]!.args, ['start']);
    assert.deepEqual(servers[1]!.initializationOptions, { a: 1 });
    assert.equal(servers[1]!.readyTimeoutMs, 5000);
    assert.equal(errors.length, 5);
    assert.match(errors[0]!, /^dsh\.lsp\.servers\[1\] \('bash'\): id 'bash' is used by an earlier entry: ids must be unique; skipped$/);
    assert.match(errors[1]!, /^dsh\.lsp\.servers\[2\] \('ts'\): command is missing/);
    assert.match(errors[2]!, /^dsh\.lsp\.servers\[3\] \('up'\): extension '\.SH' is not lower case: use '\.sh'.*extension "py" is invalid/);
    assert.match(errors[3]!, /dsh\.lsp\.servers\[5\] \('typo'\): extensions must be a non-empty object.*unknown key 'extension'/);
    assert.match(errors[4]!, /dsh\.lsp\.servers\[6\] must be an object/);
  });

  it('package.json declares the setting as the code reads it: machine-overridable, restricted, the same keys', () => {
    const pkg = packageJson();
    const setting = pkg.contributes.configuration.properties['dsh.lsp.servers'];
    assert.equal(setting?.scope, 'machine-overridable');
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('dsh.lsp.servers'));
    assert.deepEqual(Object.keys(setting.items?.properties ?? {}).sort(), [
      'args',
      'command',
      'extensions',
      'id',
      'initializationOptions',
      'readyTimeoutMs',
    ]);
    const full = { id: 'a', command: 'c', args: [], extensions: { '.x': 'x' }, initializationOptions: {}, readyTimeoutMs: 5 };
    assert.deepEqual(parseServerConfigs([full]).errors, [], 'every declared key is accepted');
    assert.ok(
      !('bash-language-server' in pkg.dependencies) && !('typescript-language-server' in pkg.dependencies),
      'servers are dev dependencies only',
    );
  });

  it('no value is no servers; a non-array is one error', () => {
    assert.deepEqual(parseServerConfigs(undefined), { servers: [], errors: [] });
    assert.match(parseServerConfigs({ id: 'x' }).errors[0]!, /must be an array/);
  });
});

describe('CrashPolicy', () => {
  it('restarts with doubling delays, bounded, and fails after maxRestarts crashes in the window', () => {
    const p = new CrashPolicy({ maxRestarts: 3, windowMs: 10_000, baseDelayMs: 100, maxDelayMs: 250 });
    assert.deepEqual(p.crashed(0), { restart: true, delayMs: 100, crashes: 1 });
    assert.deepEqual(p.crashed(1), { restart: true, delayMs: 200, crashes: 2 });
    assert.deepEqual(p.crashed(2), { restart: true, delayMs: 250, crashes: 3 });
    assert.deepEqual(p.crashed(3), { restart: false, crashes: 4 });
    assert.equal(p.failed, true);
    p.reset();
    assert.equal(p.failed, false);
  });

  it('crashes outside the window are forgotten', () => {
    const p = new CrashPolicy({ maxRestarts: 1, windowMs: 1000, baseDelayMs: 100 });
    assert.equal(p.crashed(0).restart, true);
    assert.equal(p.crashed(5000).restart, true);
    assert.equal(p.crashed(5001).restart, false);
  });
});

describe('watchdog', () => {
  (process.platform === 'linux' ? it : it.skip)(
    'a group whose last member ends while /proc is scanned is not taken for still ours (its number is then free for a stranger)',
    async function () {
      this.timeout(120_000);
      const firstLine = (child: ReturnType<typeof spawn>) =>
        new Promise<string>((resolve) => {
          let out = '';
          child.stdout!.on('data', (d) => {
            out += String(d);
            if (out.includes('\n')) resolve(out.split('\n')[0]!);
          });
        });
      // A session of its own whose leader exits at once: its group keeps one member, whose parent
      // left the session (setsid) and reaps it the moment it ends.
      const leader = spawn(
        'python3',
        [
          '-c',
          'import os, time\nif os.fork() == 0:\n    m = os.fork()\n    if m == 0:\n        time.sleep(600)\n        os._exit(0)\n    os.setsid()\n    print(m, flush=True)\n    os.waitpid(m, 0)\n    os._exit(0)\ntime.sleep(0.1)\n',
        ],
        { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const member = Number(await firstLine(leader));
      const pgid = leader.pid!;
      await until('the leader to be reaped', () => leader.exitCode !== null && readStat(pgid) === undefined);
      // Processes started after it (higher pids, read later) make the scan last a while.
      const crowd = spawn('bash', ['-c', 'for i in $(seq 2000); do sleep 600 & done; echo ready; wait'], {
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        await firstLine(crowd);
        assert.equal(await groupStillOurs(pgid), true, 'the group with its member');
        const answer = groupStillOurs(pgid);
        // The scan read the member among the first processes; it ends while the scan goes on.
        await new Promise((resolve) => setTimeout(resolve, 20));
        process.kill(member, 'SIGKILL');
        await until('the member to be gone', () => readStat(member) === undefined, 5000, 2);
        assert.equal(await answer, false, 'the group ended before the answer');
      } finally {
        process.kill(-crowd.pid!, 'SIGKILL');
        try {
          process.kill(member, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  );

  it('a server and its child do not outlive a SIGKILLed host', async function () {
    this.timeout(30_000);
    const host = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/programs/watchdogHost.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      host.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      host.once('exit', (code) => reject(new Error(`stand-in host exited early (${code})`)));
    });
    const { pgid, child } = JSON.parse(line) as { pgid: number; child: number };
    assert.ok(groupMembers(pgid).length >= 3, `watchdog, server and child in group ${pgid}: ${groupMembers(pgid).join(', ')}`);
    assert.ok(groupMembers(pgid).includes(child));
    host.kill('SIGKILL');
    await until(`process group ${pgid} to be gone after the host's SIGKILL`, () => groupMembers(pgid).length === 0);
    assert.equal(alive(child), false);
  });

  it('a server that crashes leaves no child behind: the rest of its process group is ended', async () => {
    const g = spawnGuarded(process.execPath, [FAKE, '--child'], { cwd: WS, graceSeconds: 1 });
    await until('the child', () => g.stderrTail().some((l) => l.startsWith('child-pid ')));
    const child = Number(
      g
        .stderrTail()
        .find((l) => l.startsWith('child-pid '))!
        .split(' ')[1],
    );
    const server = readStat(child)?.ppid;
    assert.ok(server !== undefined, `no /proc stat for the child ${child}`);
    process.kill(server, 'SIGKILL');
    await g.exited;
    await until('the crashed server’s child to be gone', () => !alive(child), 5000);
    await until('the group to be gone', () => groupMembers(g.pgid!).length === 0, 3000);
  });

  it('kill() ends the group; a missing command is refused before spawning', async () => {
    const g = spawnGuarded(process.execPath, [FAKE, '--child'], { cwd: WS });
    await until('the child', () => g.stderrTail().some((l) => l.startsWith('child-pid ')));
    const child = Number(
      g
        .stderrTail()
        .find((l) => l.startsWith('child-pid '))!
        .split(' ')[1],
    );
    await g.kill(1000);
    await until('the group to be gone', () => groupMembers(g.pgid!).length === 0, 3000);
    assert.equal(alive(child), false);
    assert.throws(() => resolveCommand('no-such-language-server-xyz', WS), /'no-such-language-server-xyz' was not found on PATH/);
    assert.throws(() => spawnGuarded('./nope/server', [], { cwd: WS }), /nope\/server' does not exist or is not an executable file/);
  });

  it("a server does not inherit the extension host's private variables (ELECTRON_RUN_AS_NODE, VSCODE_IPC_HOOK_CLI, …)", async () => {
    const host = {
      ELECTRON_RUN_AS_NODE: '1',
      VSCODE_IPC_HOOK_CLI: '/tmp/vscode-ipc-test.sock',
      VSCODE_PID: '4242',
      VSCODE_HANDLES_UNCAUGHT_ERRORS: 'true',
      VSCODE_PORTABLE: '/opt/portable',
      DSH_BRIDGE_MCP: '/run/user/1000/dsh-bridge/w.sock#c2VjcmV0',
      DSH_TEST_KEPT: 'kept',
    };
    const saved = Object.fromEntries(Object.keys(host).map((k) => [k, process.env[k]]));
    Object.assign(process.env, host);
    let g: ReturnType<typeof spawnGuarded>;
    try {
      // A real spawned program, the way configured servers start (the watchdog, then the server): it prints its environment.
      g = spawnGuarded(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.env))'], { cwd: WS });
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    let out = '';
    g.child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await g.exited;
    const env = JSON.parse(out) as Record<string, string>;
    for (const name of ['ELECTRON_RUN_AS_NODE', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_PID', 'VSCODE_HANDLES_UNCAUGHT_ERRORS', 'DSH_BRIDGE_MCP'])
      assert.equal(env[name], undefined, name);
    assert.equal(env.VSCODE_PORTABLE, '/opt/portable');
    assert.equal(env.DSH_TEST_KEPT, 'kept');
    assert.equal(env.PATH, process.env.PATH);
  });
});

describe('StdioLspProvider with bash-language-server', function () {
  this.timeout(60_000);

  it('starts lazily; definition and references of a function across two .sh files; stop ends the process group', async () => {
    const p = provider({ id: 'bash', command: BASH_LS, args: ['start'] });
    assert.equal(p.state, 'idle');
    assert.equal(p.starts, 0, 'nothing starts before the first query');
    const def = await query(p, 'goToDefinition', 'sh/main.sh', 4, 0);
    assert.equal(p.state, 'running');
    assert.equal(def.kind, 'locations');
    if (def.kind !== 'locations') return;
    assert.deepEqual(def.locations.map(at), ['sh/lib.sh:3:0']);
    assert.equal(def.resolvedWorkspaceUri, WS_URI);
    const refs = await query(p, 'findReferences', 'sh/lib.sh', 3, 0);
    assert.ok(refs.kind === 'locations');
    assert.deepEqual(refs.locations.map(at).sort(), ['sh/lib.sh:3:0 decl', 'sh/main.sh:4:0', 'sh/main.sh:5:0']);
    const hover = await query(p, 'hover', 'sh/main.sh', 4, 0);
    assert.ok(hover.kind === 'hover' && /greet/.test(hover.contents ?? ''), JSON.stringify(hover));
    const none = await query(p, 'goToDefinition', 'sh/main.sh', 3, 5);
    assert.deepEqual(none.kind === 'locations' && none.locations, [], 'a comment: no results, not "not ready"');
    assert.equal(p.starts, 1, 'one server for all queries');
    const pgid = p.pgid!;
    assert.ok(groupMembers(pgid).length > 0);
    await p.stop();
    await until(`no orphans after stop (group ${pgid})`, () => groupMembers(pgid).length === 0, 3000);
    await assert.rejects(query(p, 'hover', 'sh/main.sh', 4, 0), /was stopped/);
  });
});

describe('StdioLspProvider lifecycle (fake-lsp.js)', function () {
  this.timeout(60_000);
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-stdio-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('didOpen with the seam languageId before a request, didClose after; references send includeDeclaration: true', async () => {
    const log = path.join(tmp, 'log');
    const p = provider({ command: process.execPath, args: [FAKE, '--log', log] });
    const r = await query(p, 'findReferences', 'sh/main.sh', 4, 0);
    assert.deepEqual(r.kind === 'locations' && r.locations, []);
    // didClose is a notification written after the answer: the server logs it when it reads it.
    const read = () => fs.readFileSync(log, 'utf8').trim().split('\n');
    await until('the server logged didClose', () => read().at(-1) === 'textDocument/didClose', 5000);
    const lines = read();
    assert.deepEqual(lines.slice(0, 3), ['initialize', 'initialized', 'textDocument/didOpen shellscript']);
    assert.ok(lines.includes('textDocument/references {"includeDeclaration":true}'), lines.join('\n'));
    assert.equal(lines.at(-1), 'textDocument/didClose');
  });

  it('L05: a server still indexing (progress begun, never ended) -> not_ready, distinct from none', async () => {
    const p = provider({ command: process.execPath, args: [FAKE, '--never-ready'], readyTimeoutMs: 1500 });
    const t = Date.now();
    await assert.rejects(query(p, 'goToDefinition', 'sh/main.sh', 4, 0), (e: unknown) => {
      assert.ok(isLspError(e) && e.code === 'no_provider' && e.details.reason === 'not_ready', String(e));
      assert.match((e as Error).message, /not available or not ready.*not the same as "no results"/);
      return true;
    });
    assert.ok(Date.now() - t >= 1000, 'it waited within the bound first');
    const ready = provider({ id: 'ready', command: process.execPath, args: [FAKE], readyTimeoutMs: 10_000 });
    const r = await query(ready, 'goToDefinition', 'sh/main.sh', 4, 0);
    assert.deepEqual(r.kind === 'locations' && r.locations, []);
  });

  it('an answer still given while indexing at the time limit comes back marked provisional, not as final', async () => {
    const p = provider({ command: process.execPath, args: [FAKE, '--never-ready', '--partial'], readyTimeoutMs: 1500 });
    const t = Date.now();
    const r = await query(p, 'findReferences', 'sh/main.sh', 4, 0);
    assert.ok(Date.now() - t >= 1000, 'it asked again within the bound first');
    assert.equal(r.kind, 'locations');
    assert.equal(r.kind === 'locations' && r.locations.length, 1);
    assert.match(
      (r.kind === 'locations' && r.provisional) || '',
      /still starting or indexing after 2 s: this answer came while it was loading and may be incomplete/,
    );
    const ready = provider({ id: 'ready', command: process.execPath, args: [FAKE, '--partial'], readyTimeoutMs: 10_000 });
    const settled = await query(ready, 'findReferences', 'sh/main.sh', 4, 0);
    assert.equal(settled.kind === 'locations' && settled.provisional, undefined, "a ready server's answer is final");
  });

  it('cancellation rejects at once with cancelled', async () => {
    const p = provider({ command: process.execPath, args: [FAKE, '--never-ready'], readyTimeoutMs: 30_000 });
    const c = new AbortController();
    setTimeout(() => c.abort('test'), 500);
    const t = Date.now();
    await assert.rejects(query(p, 'hover', 'sh/main.sh', 4, 0, c.signal), (e: unknown) => isLspError(e) && e.code === 'cancelled');
    assert.ok(Date.now() - t < 2000);
  });

  it('crashes restart with backoff, then the server is reported failed with its last stderr lines', async () => {
    const p = provider(
      { command: process.execPath, args: [FAKE, '--crash-on-request'], readyTimeoutMs: 10_000 },
      { crashPolicy: { maxRestarts: 2, baseDelayMs: 50, maxDelayMs: 100 } },
    );
    const err = await query(p, 'goToDefinition', 'sh/main.sh', 4, 0).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(isLspError(err) && err.code === 'provider_failed', String(err));
    assert.match((err as Error).message, /crashed 3 times.*Last stderr lines:\nfake-lsp: fatal: textDocument\/definition crashed/s);
    assert.equal(p.starts, 3, 'two restarts, then no more');
    assert.equal(p.state, 'failed');
    await assert.rejects(query(p, 'hover', 'sh/main.sh', 4, 0), /failed: it crashed/);
    assert.equal(p.starts, 3);
  });

  it('a server that dies at start is reported with its stderr; a missing binary names the setting', async () => {
    const p = provider(
      { command: process.execPath, args: [FAKE, '--crash-at-start'], readyTimeoutMs: 3000 },
      { crashPolicy: { maxRestarts: 1, baseDelayMs: 50 } },
    );
    await assert.rejects(query(p, 'hover', 'sh/main.sh', 4, 0), /configuration missing \(crash-at-start\)/);
    const missing = provider({ id: 'gone', command: '/nonexistent/bin/language-server' });
    await assert.rejects(query(missing, 'hover', 'sh/main.sh', 4, 0), (e: unknown) => {
      assert.ok(isLspError(e) && e.code === 'no_provider' && e.details.reason === 'start_failed');
      assert.match(
        (e as Error).message,
        /language server 'gone' could not start: '\/nonexistent\/bin\/language-server' does not exist.*"command" of the entry with id 'gone' in the setting dsh\.lsp\.servers/,
      );
      return true;
    });
  });
});
