/**
 * tmux pane detection against a real tmux server on a private socket in a temp folder (the user's
 * own tmux server is never addressed), plus the change-suppressed context notes.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as pty from 'node-pty';

import { TmuxContextNotes } from '../../src/tmux/contextNotes';
import { decodeTtyNr, ptsPath, readControllingTerminal } from '../../src/proc/controllingTerminal';
import { TmuxDetection, detectTmuxPane, socketPathFromTmuxVar } from '../../src/tmux/detect';
import { until } from '../helpers/wait';

const execFileAsync = promisify(execFile);

const SESSION = 'dsh test';
/** A tab in the window name: the format separator must not be a tab. */
const WINDOW_NAME = 'work\tspace';

/** Runs tmux against the given private socket, never the user's server. */
async function tmux(socket: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('tmux', ['-S', socket, '-f', '/dev/null', ...args], {
    env: withoutTmuxVars(process.env),
    timeout: 10_000,
  });
  return stdout.replace(/\n$/, '');
}

function withoutTmuxVars(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.TMUX;
  delete copy.TMUX_PANE;
  return copy;
}

/** The TMUX and TMUX_PANE a process really inherited from its pane. */
function inheritedTmuxEnv(pid: number): { TMUX: string; TMUX_PANE: string } {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const get = (name: string): string => {
    const entry = entries.find((candidate) => candidate.startsWith(`${name}=`));
    assert.ok(entry, `process ${pid} has no ${name} in its environment`);
    return entry.slice(name.length + 1);
  };
  return { TMUX: get('TMUX'), TMUX_PANE: get('TMUX_PANE') };
}

function assertNotInPane(detection: TmuxDetection, reason: RegExp): void {
  assert.equal(detection.inPane, false, `expected not in a pane, got ${JSON.stringify(detection)}`);
  if (!detection.inPane) {
    assert.match(detection.reason, reason);
  }
}

describe('tmux pane detection (real tmux server)', function () {
  let dir: string;
  let socket: string;
  /** A node process started inside pane 1 of window 0; it reports its own pid. */
  let helperPid: number;
  /** The process tmux started as pane 0 of window 0. */
  let pane0Pid: number;
  let helperEnv: { TMUX: string; TMUX_PANE: string };
  let outsidePty: pty.IPty | undefined;
  let detached: ChildProcess | undefined;
  const otherSockets: string[] = [];

  before(async function () {
    try {
      await execFileAsync('tmux', ['-V']);
    } catch (error) {
      throw new Error(`these tests need a real tmux binary on PATH (apt-get install tmux): ${String(error)}`, { cause: error });
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-tmux-'));
    socket = path.join(dir, 'sock');
    await tmux(socket, 'new-session', '-d', '-s', SESSION, '-n', WINDOW_NAME, '-x', '80', '-y', '24', 'sleep 600');
    const helperJs = path.join(dir, 'helper.js');
    const pidFile = path.join(dir, 'helper.pid');
    fs.writeFileSync(helperJs, "require('fs').writeFileSync(process.argv[2], String(process.pid)); setInterval(() => {}, 1 << 30);\n");
    await tmux(socket, 'split-window', '-d', '-t', `${SESSION}:0.0`, `'${process.execPath}' '${helperJs}' '${pidFile}'`);
    helperPid = await until('the helper to write its pid', () =>
      fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '' ? Number(fs.readFileSync(pidFile, 'utf8')) : undefined,
    );
    pane0Pid = Number(await tmux(socket, 'display-message', '-p', '-t', `${SESSION}:0.0`, '#{pane_pid}'));
    helperEnv = inheritedTmuxEnv(helperPid);
  });

  after(async function () {
    outsidePty?.kill();
    if (detached?.pid !== undefined) {
      try {
        process.kill(detached.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const sock of [socket, ...otherSockets]) {
      if (sock) {
        await tmux(sock, 'kill-server').catch(() => undefined);
      }
    }
    if (dir) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('inherits TMUX naming the private socket and TMUX_PANE naming the helper pane', function () {
    assert.equal(socketPathFromTmuxVar(helperEnv.TMUX), socket);
    assert.match(helperEnv.TMUX_PANE, /^%\d+$/);
  });

  it('detects a helper process started inside a pane with its session, window, pane and tty', async function () {
    const detection = await detectTmuxPane({ env: helperEnv, pid: helperPid });
    const [paneTty, paneCommand] = (
      await tmux(socket, 'display-message', '-p', '-t', helperEnv.TMUX_PANE, '#{pane_tty}\t#{pane_current_command}')
    ).split('\t');
    assert.deepEqual(detection, {
      inPane: true,
      session: SESSION,
      windowIndex: 0,
      windowName: WINDOW_NAME,
      paneIndex: 1,
      paneId: helperEnv.TMUX_PANE,
      paneTty,
      paneCommand,
    });
    assert.match(paneTty!, /^\/dev\/pts\/\d+$/);
    assert.match(paneCommand!, /node/);
  });

  it("detects the pane's own first process in pane 0", async function () {
    const env = inheritedTmuxEnv(pane0Pid);
    const detection = await detectTmuxPane({ env, pid: pane0Pid });
    assert.equal(detection.inPane, true, JSON.stringify(detection));
    if (detection.inPane) {
      assert.equal(detection.paneIndex, 0);
      assert.equal(detection.paneId, env.TMUX_PANE);
      assert.equal(detection.paneCommand, 'sleep');
      assert.notEqual(detection.paneTty, ((await detectTmuxPane({ env: helperEnv, pid: helperPid })) as { paneTty: string }).paneTty);
    }
  });

  it('reads the same controlling terminal from /proc and from ps', async function () {
    const fromProc = await readControllingTerminal(helperPid, { platform: 'linux' });
    const fromPs = await readControllingTerminal(helperPid, { platform: 'darwin' });
    assert.deepEqual(fromProc, fromPs);
    assert.match(String(fromProc.tty), /^\/dev\/pts\/\d+$/);
  });

  it('detects the helper through the ps fallback used off Linux', async function () {
    const detection = await detectTmuxPane({ env: helperEnv, pid: helperPid, platform: 'darwin' });
    assert.equal(detection.inPane, true, JSON.stringify(detection));
  });

  it('rejects the same environment for a process on another terminal outside any pane, naming the mismatch', async function () {
    outsidePty = pty.spawn('sleep', ['600'], { name: 'xterm', cols: 80, rows: 24, env: { ...process.env, ...helperEnv } });
    const detection = await detectTmuxPane({ env: helperEnv, pid: outsidePty.pid });
    assertNotInPane(detection, /controlling terminal \/dev\/pts\/\d+, not the pane tty \/dev\/pts\/\d+/);
    assertNotInPane(detection, new RegExp(`process ${outsidePty.pid} `));
    const viaPs = await detectTmuxPane({ env: helperEnv, pid: outsidePty.pid, platform: 'darwin' });
    assertNotInPane(viaPs, /not the pane tty/);
  });

  it('rejects the same environment for a process in another pane of the same server', async function () {
    const detection = await detectTmuxPane({ env: helperEnv, pid: pane0Pid });
    assertNotInPane(detection, /not the pane tty/);
  });

  it('rejects the same environment for a process without a controlling terminal', async function () {
    detached = spawn('sleep', ['600'], { detached: true, stdio: 'ignore', env: { ...process.env, ...helperEnv } });
    const pid = detached.pid!;
    const detection = await detectTmuxPane({ env: helperEnv, pid });
    assertNotInPane(detection, /has no controlling terminal/);
    assertNotInPane(await detectTmuxPane({ env: helperEnv, pid, platform: 'darwin' }), /has no controlling terminal/);
  });

  it('rejects the same environment for the test runner itself, which is not on that pane', async function () {
    const detection = await detectTmuxPane({ env: helperEnv });
    assertNotInPane(detection, new RegExp(`process ${process.pid} `));
  });

  it('rejects a process that does not exist', async function () {
    const detection = await detectTmuxPane({ env: helperEnv, pid: 2 ** 22 + 12345 });
    assertNotInPane(detection, /ENOENT|no such process|knows no process/i);
  });

  it('rejects a TMUX_PANE that names no pane on the server (tmux then answers empty fields with status 0)', async function () {
    const detection = await detectTmuxPane({ env: { ...helperEnv, TMUX_PANE: '%4242' }, pid: helperPid });
    assertNotInPane(detection, /tmux has no pane %4242 on server/);
  });

  it('talks to the server named by TMUX, not to the default server', async function () {
    const elsewhere = path.join(dir, 'no-such-server');
    const detection = await detectTmuxPane({ env: { ...helperEnv, TMUX: `${elsewhere},1,0` }, pid: helperPid });
    assertNotInPane(detection, new RegExp(`tmux exited with status 1: .*${elsewhere.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  it('is not in a pane when tmux is not installed, quietly', async function () {
    const warnings: string[] = [];
    const detection = await detectTmuxPane({
      env: helperEnv,
      pid: helperPid,
      tmuxPath: path.join(dir, 'no', 'such', 'tmux'),
      warn: (message) => warnings.push(message),
    });
    assertNotInPane(detection, /tmux is not installed/);
    assert.deepEqual(warnings, []);
  });

  it('is not in a pane when tmux cannot be run (EACCES), and warns once', async function () {
    const notExecutable = path.join(dir, 'tmux-not-executable');
    fs.writeFileSync(notExecutable, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const warnings: string[] = [];
    const detection = await detectTmuxPane({
      env: helperEnv,
      pid: helperPid,
      tmuxPath: notExecutable,
      warn: (message) => warnings.push(message),
    });
    assertNotInPane(detection, /could not run .*EACCES/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /EACCES/);
  });

  it('never throws even when the warn callback throws', async function () {
    const notExecutable = path.join(dir, 'tmux-not-executable-2');
    fs.writeFileSync(notExecutable, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const detection = await detectTmuxPane({
      env: helperEnv,
      pid: helperPid,
      tmuxPath: notExecutable,
      warn: () => {
        throw new Error('logger broke');
      },
    });
    assertNotInPane(detection, /EACCES/);
  });

  it('is not in a pane when tmux answers the wrong number of fields', async function () {
    const fake = path.join(dir, 'tmux-three-fields');
    fs.writeFileSync(fake, "#!/bin/sh\nprintf 'a\\037b\\037c\\n'\n", { mode: 0o755 });
    const detection = await detectTmuxPane({ env: helperEnv, pid: helperPid, tmuxPath: fake });
    assertNotInPane(detection, /tmux answered 3 fields where 7 were asked/);
  });

  it('is not in a pane when tmux answers with a malformed index', async function () {
    const answer = path.join(dir, 'bad-index-answer');
    fs.writeFileSync(answer, ['s', 'x', 'w', '0', helperEnv.TMUX_PANE, '/dev/pts/0', 'sh'].join('\x1f') + '\n');
    const fake = path.join(dir, 'tmux-bad-index');
    fs.writeFileSync(fake, `#!/bin/sh\nexec cat '${answer}'\n`, { mode: 0o755 });
    const detection = await detectTmuxPane({ env: helperEnv, pid: helperPid, tmuxPath: fake });
    assertNotInPane(detection, /malformed window or pane index/);
  });

  it('is not in a pane when tmux does not answer in time', async function () {
    const fake = path.join(dir, 'tmux-hangs');
    fs.writeFileSync(fake, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const started = Date.now();
    const detection = await detectTmuxPane({ env: helperEnv, pid: helperPid, tmuxPath: fake, timeoutMs: 300 });
    assertNotInPane(detection, /did not answer within 300 ms/);
    assert.ok(Date.now() - started < 5000);
  });

  for (const [label, env, reason] of [
    ['neither variable is set', {}, /TMUX is not set/],
    ['TMUX is empty', { TMUX: '', TMUX_PANE: '%0' }, /TMUX is not set/],
    ['TMUX_PANE is absent', { TMUX: '/tmp/x,1,0' }, /TMUX_PANE is not set/],
    ['TMUX names no socket', { TMUX: ',1,0', TMUX_PANE: '%0' }, /TMUX names no server socket/],
    ['TMUX_PANE is not a pane id', { TMUX: '/tmp/x,1,0', TMUX_PANE: 'main:0.1' }, /TMUX_PANE is not a pane id/],
  ] as const) {
    it(`is not in a pane when ${label}`, async function () {
      assertNotInPane(await detectTmuxPane({ env: { ...env }, pid: helperPid }), reason);
    });
  }

  describe('dead server', function () {
    async function startServer(name: string): Promise<{ sock: string; env: { TMUX: string; TMUX_PANE: string }; pid: number }> {
      const sock = path.join(dir, name);
      otherSockets.push(sock);
      await tmux(sock, 'new-session', '-d', '-s', name, 'sleep 600');
      const pid = Number(await tmux(sock, 'display-message', '-p', '-t', `${name}:0.0`, '#{pane_pid}'));
      const env = inheritedTmuxEnv(pid);
      assert.equal((await detectTmuxPane({ env, pid })).inPane, true, 'precondition: detected while alive');
      return { sock, env, pid };
    }

    it('is not in a pane after the server was killed', async function () {
      const { sock, env, pid } = await startServer('killed');
      await tmux(sock, 'kill-server');
      assertNotInPane(await detectTmuxPane({ env, pid }), /tmux exited with status 1/);
      await assert.rejects(tmux(sock, 'list-sessions'), 'detection must not have started a server');
    });

    it('is not in a pane after the server died and left its socket behind', async function () {
      const { sock, env, pid } = await startServer('crashed');
      assert.equal(socketPathFromTmuxVar(env.TMUX), sock);
      const serverPid = Number(env.TMUX.split(',')[1]); // TMUX is "socket,server pid,session id".
      process.kill(serverPid, 'SIGKILL');
      // The killed server may linger as a zombie (nothing reaps it in a container): wait until it
      // no longer answers on its socket, which it leaves behind.
      await until('the killed server to stop answering', () =>
        tmux(sock, 'list-sessions').then(
          () => false,
          () => true,
        ),
      );
      assert.ok(fs.existsSync(sock), 'precondition: the socket file is left behind');
      try {
        assertNotInPane(await detectTmuxPane({ env, pid }), /tmux exited with status 1/);
      } finally {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // the pane process may already be gone
        }
      }
    });
  });
});

describe('tty_nr decoding', function () {
  it('decodes pseudo-terminals below and above minor 255', function () {
    const encode = (major: number, minor: number): number => (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12);
    assert.deepEqual(decodeTtyNr(encode(136, 0)), { major: 136, minor: 0 });
    assert.deepEqual(decodeTtyNr(34816), { major: 136, minor: 0 });
    assert.deepEqual(decodeTtyNr(encode(136, 300)), { major: 136, minor: 300 });
    assert.equal(ptsPath(136, 300), '/dev/pts/300');
    assert.equal(ptsPath(137, 4), '/dev/pts/260');
    assert.deepEqual(decodeTtyNr(encode(4, 1)), { major: 4, minor: 1 });
    assert.equal(ptsPath(4, 1), undefined);
  });

  it('treats a tty_nr printed negative (bit 31 set) as unsigned', function () {
    const value = (0x800 << 20) | (136 << 8) | 5; // minor 0x80005
    assert.ok(value < 0);
    assert.deepEqual(decodeTtyNr(value), { major: 136, minor: 0x80005 });
  });
});

describe('TmuxContextNotes', function () {
  const here: TmuxDetection = {
    inPane: true,
    session: 's',
    windowIndex: 1,
    windowName: 'w',
    paneIndex: 2,
    paneId: '%7',
    paneTty: '/dev/pts/3',
    paneCommand: 'bash',
  };

  it('reports unchanged only when the detection equals the last one reported to the same owner', function () {
    const notes = new TmuxContextNotes();
    const owner = {};
    assert.deepEqual(notes.report(owner, here), { ...here, unchanged: false });
    assert.deepEqual(notes.report(owner, { ...here }), { ...here, unchanged: true });
    const moved = { ...here, paneIndex: 3 };
    assert.deepEqual(notes.report(owner, moved), { ...moved, unchanged: false });
    assert.deepEqual(notes.report(owner, here), { ...here, unchanged: false });
    assert.equal(notes.report(owner, here).unchanged, true);
  });

  it('keeps owners apart', function () {
    const notes = new TmuxContextNotes();
    const first = {};
    const second = {};
    notes.report(first, here);
    assert.equal(notes.report(second, here).unchanged, false);
    assert.equal(notes.report(first, here).unchanged, true);
  });

  it('compares not-in-pane answers by reason and ignores key order', function () {
    const notes = new TmuxContextNotes();
    const owner = {};
    assert.equal(notes.report(owner, { inPane: false, reason: 'a' }).unchanged, false);
    assert.equal(notes.report(owner, { reason: 'a', inPane: false }).unchanged, true);
    assert.equal(notes.report(owner, { inPane: false, reason: 'b' }).unchanged, false);
    assert.equal(notes.report(owner, here).unchanged, false);
  });

  it('forgets an owner on request', function () {
    const notes = new TmuxContextNotes();
    const owner = {};
    notes.report(owner, here);
    notes.forget(owner);
    assert.equal(notes.report(owner, here).unchanged, false);
  });
});
