/**
 * The session lifecycle on the real pty-bash backend: who holds a session's PTY master, startup
 * files that replace the shell, and cleanup that touches only the session's own processes.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnGuarded, GuardedProcess } from '../../../src/lsp/stdio/watchdog';
import { resolveTerminalConfig } from '../../../src/terminal/config';
import { TerminalError } from '../../../src/terminal/errors';
import { PtyModule } from '../../../src/terminal/session/nodePty';
import * as proc from '../../../src/proc/procProbe';
import { readStat } from '../../../src/proc/stat';
import { sessionProcesses } from '../../../src/proc/sessions';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { TerminalService } from '../../../src/terminal/service';
import { Harness, MemoryLog, harness, homeWithRc, nodePty } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';
import { alive } from '../../helpers/processes';
import { heldText, withLagProbe, type LagFigures } from '../../helpers/eventLoopLag';

const linux = process.platform === 'linux';

/** Every process that holds a PTY master (`/dev/ptmx`), with the index of the PTY (`tty-index` in fdinfo). */
function ptyMasterHolders(): { pid: number; fd: number; index: number }[] {
  const holders: { pid: number; fd: number; index: number }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = fs.readlinkSync(`/proc/${name}/fd/${fd}`);
        if (target !== '/dev/ptmx' && target !== '/dev/pts/ptmx') continue;
        const index = /^tty-index:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${name}/fdinfo/${fd}`, 'utf8'));
        if (index) holders.push({ pid: Number(name), fd: Number(fd), index: Number(index[1]) });
      } catch {
        // the process or descriptor went away during the scan
      }
    }
  }
  return holders;
}

/** The shell pid and PTY path of a session, asked of the shell itself. */
async function shellOf(h: Harness, sessionId: string): Promise<{ pid: number; tty: string }> {
  const output = (await h.service.send(h.owner, sessionId, { input: 'echo "$$ $(tty)"' })).output;
  const [pid, tty] = output.trim().split(/\s+/);
  assert.ok(pid !== undefined && tty !== undefined, `the shell printed no pid and tty: ${JSON.stringify(output)}`);
  return { pid: Number(pid), tty };
}

/** VS Code's own node-pty in the test host (an unpatched copy), when scripts/install-host.sh installed it. */
function vscodeNodePty(): PtyModule | undefined {
  const root = path.join(os.userInfo().homedir, '.cache/dsh-bridge'); // the account's home: the unit tests' HOME is a fresh folder
  let dirs: string[];
  try {
    dirs = fs.readdirSync(root).filter((d) => /^code-server-[\d.]+$/.test(d));
  } catch {
    return undefined;
  }
  for (const d of dirs) {
    const candidate = path.join(root, d, 'node_modules/code-server/lib/vscode/node_modules/node-pty');
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- VS Code's own node-pty, at a path found at run time
      return require(candidate) as PtyModule;
    } catch {
      // not installed there, or built for another Node
    }
  }
  return undefined;
}

/** Pids of live processes whose environment holds `NAME=value` (Linux /proc). */
function processesWithEnv(name: string, value: string): number[] {
  const mark = `\0${name}=${value}\0`;
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readStat(Number(d))?.state === 'Z') continue;
      if (`\0${fs.readFileSync(`/proc/${d}/environ`, 'latin1')}`.includes(mark)) pids.push(Number(d));
    } catch {
      // gone, or not readable
    }
  }
  return pids;
}

/**
 * True once the guarded server runs its program (`sleep`): what a process holds after exec is what
 * it inherited; before exec a forked child briefly holds the host's close-on-exec descriptors too.
 */
function runsSleep(server: GuardedProcess): boolean {
  return proc.groupProcesses(server.pgid!, server.pgid!).some((p) => p.comm === 'sleep');
}

/** Opens sessions each running a job and a nohup job, and returns the index of each session's PTY. */
async function sessionsWithJobs(h: Harness, count: number): Promise<number[]> {
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    const r = await h.service.send(h.owner, sessionId, { input: `sleep 300 & nohup sleep 301 >/dev/null 2>&1 & echo started` });
    assert.equal(r.output.split('\n').pop(), 'started');
    const { tty } = await shellOf(h, sessionId);
    indexes.push(Number(/\/dev\/pts\/(\d+)$/.exec(tty)![1]));
  }
  return indexes;
}

function describeHolders(holders: { pid: number; fd: number; index: number }[]): string[] {
  return holders.map((x) => {
    let comm = '?';
    try {
      comm = fs.readFileSync(`/proc/${x.pid}/comm`, 'utf8').trim();
    } catch {
      // gone
    }
    return `pid ${x.pid} (${comm}) holds the master of pts/${x.index} as fd ${x.fd}`;
  });
}

/** A service on the given node-pty (e.g. VS Code's unpatched copy) with default settings, in `tmp`. */
function unpatchedHarness(pty: PtyModule, tmp: string): Harness {
  const log = new MemoryLog();
  const service = new TerminalService(log);
  const config = resolveTerminalConfig({});
  service.registerBackend(new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('test');
  return {
    service,
    owner,
    log,
    tmp,
    dispose: async () => {
      await service.closeAll('test done');
    },
  };
}

(linux ? describe : describe.skip)('session lifecycle: PTY masters', function () {
  this.timeout(90_000);
  let h: Harness;
  const children: ChildProcess[] = [];
  const guarded: GuardedProcess[] = [];
  beforeEach(() => (h = harness()));
  afterEach(async () => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
    await Promise.all(guarded.splice(0).map((g) => g.kill(200)));
    await h.dispose();
  });

  it('no process but the host holds a session’s PTY master: not another session, its jobs, a nohup child, a language server or a later child', async () => {
    const indexes = await sessionsWithJobs(h, 3);
    // Processes the host starts after the sessions: a language server under the watchdog, and a
    // plain child as any other extension spawns one.
    const server = spawnGuarded('sleep', ['302'], { cwd: h.tmp });
    guarded.push(server);
    const child = spawn('sleep', ['303'], { stdio: 'ignore' });
    children.push(child);
    await until('both to run sleep', () => runsSleep(server) && readStat(child.pid!)?.comm === 'sleep');
    const holders = ptyMasterHolders().filter((x) => indexes.includes(x.index));
    assert.deepEqual(describeHolders(holders.filter((x) => x.pid !== process.pid)), []);
    // The host itself holds each master exactly once.
    for (const index of indexes) assert.equal(holders.filter((x) => x.index === index).length, 1, `pts/${index}`);
    assert.ok(
      h.log.lines.some((l) => /PTY masters are close-on-exec/.test(l)),
      'the log says which protection is in force',
    );
  });

  it('with an unpatched node-pty (VS Code’s own) no session, job or language server holds another session’s master', async function () {
    const vscodePty = vscodeNodePty();
    if (!vscodePty) this.skip();
    const vh = unpatchedHarness(vscodePty, h.tmp);
    const log = vh.log;
    try {
      const indexes = await sessionsWithJobs(vh, 3);
      const server = spawnGuarded('sleep', ['302'], { cwd: h.tmp });
      guarded.push(server);
      await until('the language server to run sleep', () => runsSleep(server));
      const holders = ptyMasterHolders().filter((x) => indexes.includes(x.index));
      // Only the host, and (the limit of this protection) no process of ours: a plain child the
      // host spawns can still inherit, which is why the packaged node-pty is patched.
      assert.deepEqual(describeHolders(holders.filter((x) => x.pid !== process.pid)), []);
      assert.ok(
        log.lines.some((l) => /^warn this node-pty leaves PTY masters inheritable/.test(l)),
        log.lines.join('\n'),
      );
    } finally {
      await vh.dispose();
    }
  });

  it('with an unpatched node-pty, another session’s master at the host’s descriptor 255 (bash’s usual terminal descriptor) is closed too', async function () {
    const vscodePty = vscodeNodePty();
    if (!vscodePty) this.skip();
    const vh = unpatchedHarness(vscodePty, h.tmp);
    const { service, owner } = vh;
    // A busy extension host has hundreds of descriptors open: take every one below 255, so the
    // first session's PTY master is opened as descriptor 255.
    const fillers: number[] = [];
    try {
      // Opening a session yields to the event loop, where the host may open a descriptor of its
      // own first (a worker thread starting): then that session is closed and the fill tried again.
      let first: number | undefined;
      for (let attempt = 0; attempt < 5 && first === undefined; attempt++) {
        for (let fd = fs.openSync('/dev/null', 'r'); ; fd = fs.openSync('/dev/null', 'r')) {
          fillers.push(fd);
          if (fd >= 254) break;
        }
        const [index] = await sessionsWithJobs(vh, 1);
        for (const fd of fillers.splice(0)) fs.closeSync(fd);
        if (ptyMasterHolders().some((x) => x.pid === process.pid && x.fd === 255 && x.index === index)) first = index;
        else await service.close(owner, service.list(owner).at(-1)!.sessionId);
      }
      assert.ok(first !== undefined, 'the first master is the host’s descriptor 255 (in 5 tries)');
      const later = await sessionsWithJobs(vh, 1);
      const holders = ptyMasterHolders().filter((x) => x.index === first || later.includes(x.index));
      assert.deepEqual(describeHolders(holders.filter((x) => x.pid !== process.pid)), []);
      // The shell keeps its own terminal descriptors: job control still works.
      const { sessionId } = service.list(owner)[1]!;
      const r = await service.send(owner, sessionId, {
        input: 'sleep 0.2 & wait $!; echo "fg:$(ps -o tpgid= -p $$ | tr -d " ") pg:$(ps -o pgid= -p $$ | tr -d " ")"',
      });
      const m = /fg:(\d+) pg:(\d+)/.exec(r.output);
      assert.ok(m && m[1] === m[2], `the shell holds the foreground of its terminal at its prompt: ${r.output}`);
    } finally {
      for (const fd of fillers) fs.closeSync(fd);
      await vh.dispose();
    }
  });
});

describe('session lifecycle: a shell that must start in a real path', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('starts there; where the path leads elsewhere by the start (a folder replaced by a link), no startup file runs and the open is refused', async () => {
    const real = path.join(h.tmp, 'real');
    fs.mkdirSync(real);
    const home = homeWithRc(h.tmp, `touch ${JSON.stringify(path.join(h.tmp, 'startup-ran'))}\n`);
    const opened = await h.service.open(h.owner, { cwd: fs.realpathSync(real), exactCwd: true, env: { HOME: home } });
    assert.equal((await h.service.send(h.owner, opened.sessionId, { input: 'pwd -P' })).output, fs.realpathSync(real));
    fs.rmSync(path.join(h.tmp, 'startup-ran'));
    // What a swap between the check of the path and the shell's start leaves: a link on the path.
    fs.mkdirSync(path.join(h.tmp, 'elsewhere'));
    const swapped = path.join(fs.realpathSync(h.tmp), 'swapped');
    fs.symlinkSync(path.join(h.tmp, 'elsewhere'), swapped);
    const error = await h.service.open(h.owner, { cwd: swapped, exactCwd: true, env: { HOME: home } }).then(
      () => assert.fail('the open succeeded'),
      (e: unknown) => e as TerminalError,
    );
    assert.ok(error instanceof TerminalError && error.code === 'RECEIVER_CHANGED', String(error));
    assert.ok(
      error.message.includes(`to start in "${swapped}", but found itself in "${fs.realpathSync(path.join(h.tmp, 'elsewhere'))}"`),
      error.message,
    );
    assert.equal(fs.existsSync(path.join(h.tmp, 'startup-ran')), false, 'a startup file ran in the folder it was led to');
    assert.deepEqual(
      h.service.list(h.owner).map((s) => s.sessionId),
      [opened.sessionId],
    );
  });
});

(linux ? describe : describe.skip)('session lifecycle: startup files that replace the shell', function () {
  this.timeout(90_000);
  let h: Harness;
  let mark: string;
  beforeEach(() => {
    h = harness({ openTimeoutMs: 30_000 });
    mark = randomBytes(6).toString('hex');
  });
  afterEach(() => h.dispose());

  async function openFails(rc: string, env: Record<string, string> = {}): Promise<{ error: TerminalError; ms: number; home: string }> {
    const home = homeWithRc(h.tmp, rc);
    const started = Date.now();
    const error = await h.service.open(h.owner, { cwd: h.tmp, env: { HOME: home, DSH_TEST_MARK: mark, ...env } }).then(
      () => assert.fail('the open succeeded'),
      (e: unknown) => e as TerminalError,
    );
    return { error, ms: Date.now() - started, home };
  }

  function assertNamesFileAndGuard(error: TerminalError, home: string): void {
    assert.ok(error instanceof TerminalError && error.code === 'SPAWN_FAILED', String(error));
    assert.ok(error.message.includes(path.join(home, '.bashrc')), error.message);
    assert.match(error.message, /\[ -n "\$DSH_BRIDGE_SESSION" \] && return/);
  }

  for (const program of ['cat', 'sh']) {
    it(`a .bashrc that execs ${program} fails the open in seconds, naming the file and the guard, and leaves no process`, async () => {
      const { error, ms, home } = await openFails(`exec ${program}\n`);
      assertNamesFileAndGuard(error, home);
      assert.ok(ms < 10_000, `failed after ${ms} ms; the open timeout is 30000 ms`);
      assert.match(error.message, new RegExp(`became \`${program}\``));
      await until('no process of the failed open', () => processesWithEnv('DSH_TEST_MARK', mark).length === 0, 3000);
      assert.deepEqual(h.service.list(h.owner), []);
    });
  }

  /** Opens a session whose .bashrc is `rc`, next to the user's tmux (a server with a session `main`): the open must fail fast, attach nothing and leave no process. */
  async function failsWithoutAttachingToUserTmux(ctx: Mocha.Context, rc: string): Promise<void> {
    try {
      execFileSync('tmux', ['-V']);
    } catch {
      ctx.skip();
    }
    // The user's tmux: a server on the default socket of the test's own TMUX_TMPDIR, with a session
    // `main`, and a hook that records any client attaching to it.
    const userTmp = fs.mkdtempSync(path.join(h.tmp, 'user-tmux-'));
    const attached = path.join(h.tmp, 'attached');
    const userEnv: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: userTmp, HOME: h.tmp };
    delete userEnv.TMUX;
    const userTmux = (...args: string[]) => execFileSync('tmux', args, { env: userEnv, encoding: 'utf8' });
    userTmux('new-session', '-d', '-s', 'main', 'sleep 600');
    try {
      userTmux('set-hook', '-g', 'client-attached', `run-shell "touch ${attached}"`);
      const { error, ms, home } = await openFails(rc, { TMUX_TMPDIR: userTmp });
      assert.equal(fs.existsSync(attached), false, 'a client attached to the user’s tmux');
      assertNamesFileAndGuard(error, home);
      assert.ok(ms < 10_000, `failed after ${ms} ms; the open timeout is 30000 ms`);
      assert.equal(userTmux('list-sessions', '-F', '#{session_name}').trim(), 'main');
      await until(
        'no process of the failed open (the tmux it started included)',
        () => processesWithEnv('DSH_TEST_MARK', mark).length === 0,
        3000,
      );
    } finally {
      try {
        userTmux('kill-server');
      } catch {
        // already gone
      }
    }
  }

  it('a .bashrc that execs `tmux new -A -s main` never attaches to the user’s tmux, fails fast, and leaves no tmux server behind', async function () {
    await failsWithoutAttachingToUserTmux(this, '[ -z "$TMUX" ] && exec tmux new -A -s main\n');
  });

  it('a .bashrc whose PROMPT_COMMAND execs `tmux new -A -s main` (at the first prompt) never attaches to the user’s tmux and fails fast', async function () {
    await failsWithoutAttachingToUserTmux(this, `PROMPT_COMMAND='[ -z "$TMUX" ] && exec tmux new -A -s main'\n`);
  });

  it('a guarded .bashrc opens; commands then see the user’s TMUX_TMPDIR again', async () => {
    const home = homeWithRc(h.tmp, '[ -n "$DSH_BRIDGE_SESSION" ] && return\nexec cat\n');
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp, env: { HOME: home, TMUX_TMPDIR: '/some/user dir' } });
    assert.equal((await h.service.send(h.owner, sessionId, { input: 'echo "[$TMUX_TMPDIR]"' })).output, '[/some/user dir]');
    const unset = await h.service.open(h.owner, { cwd: h.tmp, env: { HOME: home, TMUX_TMPDIR: null } });
    assert.equal((await h.service.send(h.owner, unset.sessionId, { input: 'echo "[${TMUX_TMPDIR-unset}]"' })).output, '[unset]');
  });
});

(linux ? describe : describe.skip)('session lifecycle: cleanup touches only what is ours', function () {
  this.timeout(90_000);

  it('a session id whose leader pid now names another process (another start time) has no members of ours', async () => {
    const leader = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      await until('the new session', () => readStat(leader.pid!)?.session === leader.pid);
      const start = readStat(leader.pid!)!.startTime;
      assert.deepEqual(
        sessionProcesses(leader.pid!, start).map((p) => p.pid),
        [leader.pid],
      );
      assert.deepEqual(sessionProcesses(leader.pid!, start - 1), []);
      assert.deepEqual(proc.groupProcesses(leader.pid!, leader.pid!, start + 1), []);
    } finally {
      leader.kill('SIGKILL');
    }
  });

  /** A service whose pty-bash backend has no /proc probe (as where /proc cannot be read), with one session open. */
  async function sessionWithoutProbe() {
    const log = new MemoryLog();
    const service = new TerminalService(log);
    const config = resolveTerminalConfig({});
    service.registerBackend(new PtyBashBackend(nodePty, () => config, log, { probe: false }));
    const owner = service.createOwner('test');
    const { sessionId } = await service.open(owner, { cwd: os.tmpdir() });
    return { log, service, owner, sessionId };
  }

  it('without the /proc probe, close ends the shell, its jobs and a nohup job, and reports no false failure', async () => {
    const { log, service, owner, sessionId } = await sessionWithoutProbe();
    const r = await service.send(owner, sessionId, { input: 'sleep 300 & a=$!; nohup sleep 301 >/dev/null 2>&1 & echo "$$ $a $!"' });
    assert.equal(r.probe, 'unavailable');
    const pids = r.output.trim().split('\n').pop()!.split(' ').map(Number);
    assert.equal(pids.length, 3);
    assert.equal(await service.close(owner, sessionId), true);
    await until('the shell and its jobs to be gone', () => pids.every((p) => !alive(p)), 3000);
    assert.ok(!log.lines.some((l) => /survived SIGKILL|cleanup failed/.test(l)), log.lines.join('\n'));
  });

  it('without the /proc probe, a close still waiting on a job never signals a process that took the terminal number since (a new PTY of another program)', async () => {
    const { service, owner, sessionId } = await sessionWithoutProbe();
    // A job that ignores SIGHUP keeps the close waiting (CLOSE_HANGUP_MS) after the shell exited.
    const r = await service.send(owner, sessionId, { input: 'nohup sleep 301 >/dev/null 2>&1 & echo "$$ $! $(tty)"' });
    const [shell, job, tty] = r.output.trim().split('\n').pop()!.split(' ');
    const closed = service.close(owner, sessionId);
    await until('the shell to end', () => !alive(Number(shell)), 3000, 5);
    // Another program's PTY, opened now, takes the lowest free terminal number: the one just freed.
    let victim: ReturnType<PtyModule['spawn']> | undefined;
    for (let k = 0; k < 20 && !victim; k++) {
      const p = nodePty.spawn('/bin/sh', ['-c', 'tty; exec sleep 30'], { cols: 80, rows: 24 });
      const name = await new Promise<string>((resolve) => p.onData((d) => resolve(d.trim())));
      if (name === tty) victim = p;
      else p.kill('SIGKILL');
    }
    try {
      assert.ok(victim, `no new PTY took ${tty}`);
      assert.equal(await closed, true);
      assert.equal(alive(Number(job)), false, "the session's job was ended");
      assert.equal(alive(victim.pid), true, `the close killed pid ${victim.pid}, which holds ${tty} since`);
    } finally {
      victim?.kill('SIGKILL');
    }
  });

  it('under an init that never reaps orphans (Node as pid 1 of a container), close ends the session and reports no false failure', async function () {
    // A new pid namespace needs root, or a user namespace mapped to root where unprivileged ones are allowed.
    const unshare = [...(process.getuid?.() === 0 ? [] : ['--map-root-user']), '--pid', '--fork', '--mount-proc'];
    try {
      execFileSync('unshare', [...unshare, 'true'], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      this.skip(); // no way to make a pid namespace here
    }
    const script = path.join(__dirname, '../../helpers/programs/closeUnderNodeInit.ts');
    const out = execFileSync('unshare', [...unshare, process.execPath, '--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
      env: process.env,
    });
    const results = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { probe: boolean; closed: boolean; error?: string; left: string[] });
    assert.deepEqual(
      results.map((r) => r.probe),
      [true, false],
    );
    for (const r of results) {
      assert.equal(r.error, undefined, `probe ${r.probe}: ${r.error}`);
      assert.equal(r.closed, true);
      assert.ok(
        r.left.every((s) => s === 'Z'),
        `probe ${r.probe}: only unreaped zombies may remain, saw ${r.left.join(' ')}`,
      );
    }
  });

  /**
   * Opens a session whose command fills `sub` of its private folder (found beside the traps report,
   * whose path is in PROMPT_COMMAND) with `count` files (`fill`, a shell command run in that
   * folder), then closes it: how long this thread was held until the folder was removed.
   */
  async function closeAfterFilling(sub: string, fill: string, count: number): Promise<LagFigures> {
    const h = harness();
    try {
      const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
      const r = await h.service.send(h.owner, sessionId, {
        input: `d=$(dirname "$(builtin printf '%s\\n' "\${PROMPT_COMMAND[@]}" | grep -o "/[^']*/traps" | head -n 1)")/${sub}; mkdir -p "$d" && (cd "$d" && ${fill}) && ls "$d" | wc -l; echo "$d"`,
        timeoutMs: 60_000,
      });
      const [listed, dir] = r.output.trim().split('\n');
      assert.equal(listed, String(count));
      return await withLagProbe(async () => {
        await h.service.close(h.owner, sessionId, 'test');
        // The teardown may go on after close answered; it removes the private folder last.
        await until('the private folder to be removed', () => !fs.existsSync(dir!), 30_000, 20);
      });
    } finally {
      await h.dispose();
    }
  }

  it('close is never held on this thread by what a command left where the private tmux sockets go (300 files)', async () => {
    const held = await closeAfterFilling('tmux/tmux-$(id -u)', 'for i in $(seq 300); do : > "s$i"; done', 300);
    assert.ok(held.maxHeldMs < 300, `the teardown: this thread was ${heldText(held)}`);
  });

  it("close is never held on this thread by the files a command left in the session's private folder (40 000 files)", async () => {
    const held = await closeAfterFilling('tmux/many', 'seq 40000 | xargs touch', 40000);
    assert.ok(held.maxHeldMs < 300, `the teardown: this thread was ${heldText(held)}`);
  });

  it('an agent sandbox policy that cannot be computed fails the open with its reason and leaves no startup folder', async () => {
    const startupFolders = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('dsh-bridge-'));
    const h = harness(
      {},
      {
        sandbox: {
          runtime: undefined as never, // never reached: the open fails before a shell is wrapped
          policy: () => {
            throw new Error('the storage folder cannot be created');
          },
        },
      },
    );
    try {
      const before = startupFolders();
      await assert.rejects(h.service.open(h.owner, { cwd: h.tmp }), /the storage folder cannot be created/);
      assert.deepEqual(startupFolders(), before);
    } finally {
      await h.dispose();
    }
  });

  it('closeAll ends every session and waits for it: a job that ignores SIGHUP is gone when it resolves', async () => {
    const h = harness();
    try {
      const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
      const other = h.service.createOwner('other');
      const second = await h.service.open(other, { cwd: h.tmp });
      const r = await h.service.send(h.owner, sessionId, { input: `(trap '' HUP; exec sleep 300) & echo "$!"` });
      const stubborn = Number(r.output.trim().split('\n').pop());
      const shells = [(await shellOf(h, sessionId)).pid];
      const r2 = await h.service.send(other, second.sessionId, { input: 'echo "$$"' });
      shells.push(Number(r2.output.trim()));
      await h.service.closeAll('extension deactivated');
      assert.deepEqual([stubborn, ...shells].filter(alive), []);
      assert.deepEqual(h.service.list(h.owner), []);
    } finally {
      await h.dispose();
    }
  });
});
