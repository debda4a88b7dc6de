/**
 * What a command typed into a sandboxed session cannot reach outside the sandbox, on the real
 * pty-bash backend in the real sandbox runtime (bubblewrap, its seccomp helper): servers that run
 * outside, through what the extension itself does with the session's private folder when the
 * session closes, through System V IPC objects of processes outside, and through programs the
 * extension runs outside by name.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as proc from '../../../src/proc/procProbe';
import { sandboxedSessionPerTest } from '../../helpers/sandboxedSession';
import { sandboxSettings } from '../../helpers/sandboxSettings';

const VALUES = sandboxSettings({ dshMode: 'on' });

/** True when `program` runs here (`program -V` or `--version` exits 0). */
function available(program: string, versionFlag = '-V'): boolean {
  try {
    execFileSync(program, [versionFlag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a sandboxed session reaches nothing outside the sandbox (real bubblewrap, real node-pty, real bash)', function () {
  this.timeout(120_000);
  const session = sandboxedSessionPerTest('dsh-sandbox-escape-', (f) => ({ ...VALUES, fileSystem: { denyRead: [f.denied] } }));
  const { open, send } = session;
  let workspace: string;
  let outside: string;
  let denied: string;
  /** Sets `d` in the sandboxed shell to the session's private folder: the one of the rc file its shell was started with. */
  const PRIVATE_FOLDER = 'd=$(dirname "$(tr "\\0" " " < /proc/$$/cmdline | grep -o "[^ ]*/bashrc" | head -1)")';

  beforeEach(() => {
    ({ workspace, outside, denied } = session.folders);
  });

  it("closing the session never stops a tmux server outside, whatever its commands put in the session's private folder", async function () {
    if (!available('tmux')) this.skip();
    // The person's tmux servers, on sockets outside the sandbox: one in a socket folder as tmux
    // names it (tmux-<uid>), one in a folder of another name.
    const uid = process.getuid!();
    const personTmp = path.join(outside, 'tmux-tmp');
    const other = path.join(outside, 'other');
    fs.mkdirSync(personTmp, { mode: 0o700 });
    fs.mkdirSync(path.join(other, `tmux-${uid}`), { recursive: true, mode: 0o700 });
    const tmux = (socket: string, ...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: 'pipe' });
    const sockets = [path.join(personTmp, `tmux-${uid}`, 'default'), path.join(other, `tmux-${uid}`, 'work')];
    fs.mkdirSync(path.dirname(sockets[0]!), { mode: 0o700 });
    for (const socket of sockets) tmux(socket, 'new-session', '-d', '-s', 'main', 'sleep 600');
    try {
      // Two sessions, two ways to point the extension at those sockets: the socket folder inside
      // the private TMUX_TMPDIR as a link, and the private TMUX_TMPDIR itself as a link.
      await open();
      const folder = PRIVATE_FOLDER;
      const first = await send(
        `${folder} && ln -s ${path.join(personTmp, `tmux-${uid}`)} "$d/tmux/tmux-${uid}" && ls "$d/tmux/tmux-${uid}/"`,
      );
      assert.match(first.output, /^default$/m, first.output);
      const second = await session.h!.service.open(session.h!.owner, { cwd: workspace, exactCwd: true });
      session.id = second.sessionId;
      const moved = await send(`${folder} && mv "$d/tmux" "$d/tmux-away" && ln -s ${other} "$d/tmux" && ls "$d/tmux/tmux-${uid}/"`);
      assert.match(moved.output, /^work$/m, moved.output);
      await session.close();
      for (const socket of sockets) {
        let sessions: string;
        try {
          sessions = tmux(socket, 'list-sessions', '-F', '#{session_name}');
        } catch (error) {
          sessions = String(error);
        }
        assert.match(sessions, /^main$/m, `the tmux server outside at ${socket} was stopped when the sandboxed session closed`);
      }
    } finally {
      for (const socket of sockets) {
        try {
          tmux(socket, 'kill-server');
        } catch {
          // Already gone.
        }
      }
    }
  });

  it('cannot read a denyRead file through the extension: the traps report of its private folder is not read through a link', async () => {
    await open();
    // The shell reports its traps at every prompt in the private folder, and the extension reads the
    // report (for a send's confirmation) outside the sandbox: a link there would be followed.
    const before = await send(`${PRIVATE_FOLDER} && head -1 "$d/traps"`);
    const seq = Number(/^(\d+)$/m.exec(before.output)?.[1]);
    assert.ok(Number.isInteger(seq), before.output);
    // A file under denyRead whose first line is the number the report must start with at the prompt after the next send.
    fs.writeFileSync(path.join(denied, 'secret.txt'), `${seq + 2}\nTOP-SECRET-LINE\n`);
    const link = await send(`${PRIVATE_FOLDER} && cat ${denied}/secret.txt; ln -sf ${denied}/secret.txt "$d/traps" && echo LINKED`);
    assert.match(link.output, /LINKED/);
    assert.doesNotMatch(link.output, /TOP-SECRET-LINE/, 'the sandbox itself cannot read it');
    const target = session.h!.service.sendTarget(session.h!.owner, session.id);
    assert.doesNotMatch(
      JSON.stringify(target.traps ?? {}),
      /TOP-SECRET-LINE/,
      'the extension read a denyRead file through a link the sandboxed shell made',
    );
    assert.equal(fs.readFileSync(path.join(denied, 'secret.txt'), 'utf8'), `${seq + 2}\nTOP-SECRET-LINE\n`);
  });

  it('cannot see or remove System V IPC objects of processes outside, and its own stay inside', async function () {
    if (!available('ipcmk')) this.skip();
    // The size of a segment by its id in this (the machine's) IPC namespace; undefined when there is none.
    const segmentBytes = (shmid: string) => {
      try {
        const bytes = /bytes=(\d+)/.exec(execFileSync('ipcs', ['-m', '-i', shmid], { encoding: 'utf8', stdio: 'pipe' }))?.[1];
        return bytes === undefined ? undefined : Number(bytes);
      } catch {
        return undefined;
      }
    };
    const make = (bytes: number) => /Shared memory id: (\d+)/.exec(execFileSync('ipcmk', ['-M', String(bytes)], { encoding: 'utf8' }))?.[1];
    // A shared memory segment of a process outside (as X11's MIT-SHM or a database keeps one).
    const shmid = make(4241);
    assert.ok(shmid !== undefined, 'ipcmk made a segment');
    let leaked: string | undefined;
    try {
      await open();
      const removal = await send(
        `ipcrm -m ${shmid}; ipcs -m -i ${shmid} 2>/dev/null | grep -q bytes=4241 && echo SEEN-OUTSIDE-SEGMENT; ipcmk -M 4243`,
      );
      const inside = /Shared memory id: (\d+)/.exec(removal.output)?.[1];
      assert.ok(inside !== undefined, removal.output);
      // Ids are counted per IPC namespace: one made inside is the same object only if it has its size here.
      if (segmentBytes(inside) === 4243) leaked = inside;
      assert.doesNotMatch(removal.output, /SEEN-OUTSIDE-SEGMENT/, 'the segment of a process outside is visible inside');
      assert.equal(segmentBytes(shmid), 4241, `the segment ${shmid} of a process outside was removed from inside the sandbox`);
      assert.equal(leaked, undefined, `the segment ${inside} made inside the sandbox is an object of the machine's IPC namespace`);
    } finally {
      for (const made of [shmid, leaked]) {
        if (made === undefined) continue;
        try {
          execFileSync('ipcrm', ['-m', made], { stdio: 'ignore' });
        } catch {
          // Removed already.
        }
      }
    }
  });
});

describe('without /proc, the extension runs ps from the system, never from a folder on its PATH', () => {
  let root: string;
  const hostPath = process.env.PATH;
  beforeEach(() => (root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-ps-path-')))));
  afterEach(() => {
    process.env.PATH = hostPath;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("a ps first on the extension host's PATH (a workspace virtualenv's bin, which sandboxed commands can write) is not run", async function () {
    if (!available('ps', '--version') && !fs.existsSync('/bin/ps')) this.skip();
    // Where /proc is missing (macOS) the probe, the startup watch and a close ask ps(1) about the
    // session's processes, at every send: a ps a sandboxed command wrote would run outside.
    const bin = path.join(root, 'workspace', '.venv', 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const ran = path.join(root, 'ran-outside');
    fs.writeFileSync(path.join(bin, 'ps'), `#!/bin/sh\necho ps >> ${ran}\n`, { mode: 0o755 });
    process.env.PATH = `${bin}:${hostPath}`;
    const args = await proc.processArgs(process.pid, false);
    assert.ok(args?.includes('mocha') || args?.includes('node'), `the system's ps answered: ${args}`);
    const [self] = await proc.psStillSame([{ pid: process.pid, pgid: process.pid, stat: 'S', lstart: '' }]);
    assert.equal(self, undefined, 'a start time that does not match is not the same process');
    await proc.psOnTty('/dev/pts/99999');
    assert.ok(!fs.existsSync(ran), 'the ps on PATH ran outside the sandbox');
  });
});
