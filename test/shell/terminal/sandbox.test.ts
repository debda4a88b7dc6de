/**
 * Agent sessions inside the agent sandbox: the policy computed from VS Code's settings and
 * `dsh.terminal.sandbox`, the bubblewrap command line without `--new-session`, and real sessions on
 * the real pty-bash backend in the real sandbox runtime (bubblewrap, socat, its seccomp helper):
 * the boundary holds (writes, denied reads, network), readiness works inside as outside, a program
 * that types into the terminal reaches only the sandboxed shell, and a sandbox that cannot start
 * fails the open with no shell left.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { keepControllingTerminal, SandboxCommandShapeError } from '../../../src/terminal/sandbox/controllingTerminal';
import { unshareIpc } from '../../../src/terminal/sandbox/ipcNamespace';
import {
  DSH_SANDBOX_MODES,
  SandboxPolicy,
  SandboxSettingValues,
  sandboxPolicy,
  sandboxSummary,
} from '../../../src/terminal/sandbox/policy';
import { packageJson } from '../../helpers/packageJson';
import { SandboxPolicySource } from '../../../src/terminal/sandbox/policySource';
import { which, writableFolderBefore, writableFrom } from '../../../src/terminal/sandbox/prerequisites';
import { SandboxRuntime, sandboxWritableFolders } from '../../../src/terminal/sandbox/runtime';
import * as proc from '../../../src/proc/procProbe';
import { readStat, type ProcStat } from '../../../src/proc/stat';
import { sessionProcesses } from '../../../src/proc/sessions';
import { TerminalError } from '../../../src/terminal/errors';
import { createTerminalApi } from '../../../src/terminal/terminalApi';
import { sandboxFolders } from '../../helpers/sandboxFolders';
import { sandboxSettings } from '../../helpers/sandboxSettings';
import { Harness, harness, sleep } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';
import { SILENT_LOG } from '../../../src/common/log';
import { git as gitIn } from '../../helpers/git';

const VALUES = sandboxSettings();
const FOLDERS = { workspaceFolders: ['/w/one'], storageFolder: '/s/store', tempFolder: '/t/tmp' };

describe('sandbox policy from the settings', () => {
  const policy = (v: Partial<SandboxSettingValues>) => sandboxPolicy({ ...VALUES, ...v }, FOLDERS, '/home/u');

  it('follows chat.agent.sandbox.enabled by default ("on", or true from its older boolean form)', () => {
    assert.equal(policy({}).on, false);
    assert.equal(policy({ vscodeEnabled: 'on', vscodeEnabledSource: 'explicit' }).on, true);
    assert.equal(policy({ vscodeEnabled: true, vscodeEnabledSource: 'explicit' }).on, true);
    assert.match(policy({ vscodeEnabled: 'on', vscodeEnabledSource: 'policy' }).reason, /organisation policy/);
  });

  it('chat.agent.sandbox.enabled counts as on for every value but "off", as VS Code reads it: "allowNetwork" is on with all network', () => {
    // VS Code (isAgentSandboxEnabledValue): on unless the value is "off" or false; "allowNetwork"
    // (its value for "on, all network" before the allowNetwork setting) sandboxes its terminal.
    const allowNetwork = policy({
      vscodeEnabled: 'allowNetwork',
      vscodeEnabledSource: 'explicit',
      allowNetwork: false,
      allowedDomains: ['example.com'],
    });
    assert.equal(allowNetwork.on, true);
    assert.deepEqual(allowNetwork.network, { kind: 'all' });
    assert.match(allowNetwork.reason, /chat\.agent\.sandbox\.enabled is "allowNetwork"/);
    assert.deepEqual(allowNetwork.problems, []);
    assert.equal(
      policy({ dshMode: 'off', vscodeEnabled: 'allowNetwork', vscodeEnabledSource: 'explicit' }).on,
      true,
      '"off" cannot weaken it either',
    );
    const unknown = policy({ vscodeEnabled: 'On', vscodeEnabledSource: 'explicit' });
    assert.equal(unknown.on, true);
    assert.match(unknown.problems.join('\n'), /chat\.agent\.sandbox\.enabled has the value "On", which VS Code counts as on/);
    for (const off of ['off', false, undefined])
      assert.equal(policy({ vscodeEnabled: off, vscodeEnabledSource: off === undefined ? 'default' : 'explicit' }).on, false, String(off));
  });

  it('dsh.terminal.sandbox "on" turns it on alone; "off" cannot weaken a policy-locked or explicit "on"', () => {
    assert.equal(policy({ dshMode: 'on' }).on, true);
    assert.equal(policy({ dshMode: 'off', vscodeEnabled: 'on', vscodeEnabledSource: 'policy' }).on, true);
    const explicit = policy({ dshMode: 'off', vscodeEnabled: 'on', vscodeEnabledSource: 'explicit' });
    assert.equal(explicit.on, true);
    assert.match(explicit.reason, /cannot weaken/);
    assert.equal(
      policy({ dshMode: 'off', vscodeEnabled: 'on', vscodeEnabledSource: 'default' }).on,
      false,
      'an "on" from a default or an experiment can be turned off',
    );
  });

  it('dsh.terminal.sandbox "on" in the user settings holds: a workspace\'s "off" or "followVSCode" cannot weaken it', () => {
    // The setting is machine-overridable: a trusted workspace's .vscode/settings.json may set it,
    // and its value is the one in force. A repository's settings must not take the person's sandbox away.
    for (const workspace of ['off', 'followVSCode']) {
      const p = policy({ dshMode: workspace, dshUserMode: 'on' });
      assert.equal(p.on, true, workspace);
      assert.match(p.reason, /dsh\.terminal\.sandbox is "on" in your user settings; a workspace's value cannot weaken it/);
    }
    assert.equal(policy({ dshMode: 'on', dshUserMode: 'off' }).on, true, 'a workspace may make it stricter');
    assert.equal(policy({ dshMode: 'off', dshUserMode: 'off' }).on, false);
  });

  it('an unknown dsh.terminal.sandbox value is reported and counts as followVSCode', () => {
    const p = policy({ dshMode: 'maybe', vscodeEnabled: 'on', vscodeEnabledSource: 'explicit' });
    assert.equal(p.on, true);
    assert.match(p.problems.join('\n'), /dsh.terminal.sandbox must be one of followVSCode, on, off \(got "maybe"\)/);
  });

  it('network: all unless allowNetwork is false; then the domain lists, empty = none', () => {
    assert.deepEqual(policy({ dshMode: 'on' }).network, { kind: 'all' });
    const none = policy({ dshMode: 'on', allowNetwork: false });
    assert.deepEqual(none.network, { kind: 'domains', allowedDomains: [], deniedDomains: [] });
    assert.equal(sandboxSummary(none).network, 'none');
    const some = policy({ dshMode: 'on', allowNetwork: false, allowedDomains: ['*.example.com'], deniedDomains: ['bad.example.com'] });
    assert.deepEqual(sandboxSummary(some).network, { allowedDomains: ['*.example.com'], deniedDomains: ['bad.example.com'] });
  });

  it('writable roots: workspace folders, storage, temp, then allowWrite (~ expanded); relative paths are refused', () => {
    const p = policy({
      dshMode: 'on',
      fileSystem: { allowWrite: ['~/cache', 'rel/x', '/abs/'], denyRead: ['~/.ssh'], denyWrite: ['/w/one/secret'] },
    });
    assert.deepEqual(p.writableRoots, ['/w/one', '/s/store', '/t/tmp', '/home/u/cache', '/abs']);
    assert.deepEqual(p.denyRead, ['/home/u/.ssh']);
    assert.deepEqual(p.denyWrite, ['/w/one/secret']);
    assert.match(p.problems.join('\n'), /"rel\/x" is not an absolute path/);
  });

  it('a session outside the sandbox may be asked for only where allowUnsandboxedCommands is true and no organisation policy locks the sandbox', () => {
    const on = { vscodeEnabled: 'on', vscodeEnabledSource: 'explicit' } as const;
    assert.equal(policy({ ...on, allowUnsandboxedCommands: true }).unsandboxed.allowed, true);
    assert.match(
      policy({ ...on, allowUnsandboxedCommands: true }).unsandboxed.why,
      /allowUnsandboxedCommands is true: each such session needs the person's confirmation/,
    );
    const absent = policy(on).unsandboxed;
    assert.equal(absent.allowed, false, 'absent (a VS Code that does not declare it) is not allowed');
    assert.match(absent.why, /allowUnsandboxedCommands is not set to true.*set chat\.agent\.sandbox\.allowUnsandboxedCommands to true/);
    const off = policy({ ...on, allowUnsandboxedCommands: false }).unsandboxed;
    assert.equal(off.allowed, false);
    assert.match(off.why, /allowUnsandboxedCommands is false/);
    const locked = policy({
      vscodeEnabled: 'on',
      vscodeEnabledSource: 'policy',
      allowUnsandboxedCommands: true,
      allowUnsandboxedSource: 'default',
    }).unsandboxed;
    assert.equal(locked.allowed, false, 'a sandbox locked on by policy is not left on a default');
    assert.match(locked.why, /locked on by organisation policy.*only the organisation's policy can allow them/);
    assert.equal(
      policy({ vscodeEnabled: 'on', vscodeEnabledSource: 'policy', allowUnsandboxedCommands: true, allowUnsandboxedSource: 'policy' })
        .unsandboxed.allowed,
      true,
    );
    assert.equal(
      policy({ dshMode: 'on', allowUnsandboxedCommands: true }).unsandboxed.allowed,
      true,
      'dsh.terminal.sandbox "on" follows the same rule',
    );
    const bad = policy({ ...on, allowUnsandboxedCommands: 'yes' });
    assert.equal(bad.unsandboxed.allowed, false);
    assert.match(bad.problems.join('\n'), /allowUnsandboxedCommands must be true or false \(got "yes"\); false is used/);
    assert.equal(
      policy({ allowUnsandboxedCommands: false }).unsandboxed.allowed,
      true,
      'with the sandbox off every session runs outside it',
    );
  });
});

describe('dsh.terminal.sandbox in package.json', () => {
  it('declares the modes the policy knows, followVSCode by default, and is restricted in untrusted workspaces', () => {
    const pkg = packageJson();
    const setting = pkg.contributes.configuration.properties['dsh.terminal.sandbox'];
    assert.deepEqual(setting?.enum, [...DSH_SANDBOX_MODES]);
    assert.equal(setting?.default, 'followVSCode');
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('dsh.terminal.sandbox'));
  });
});

/** A host event the test fires, as VS Code fires onDidChangeConfiguration: each listener at once, in order. */
class HostEvent {
  private readonly listeners = new Set<() => void>();
  readonly event = (listener: () => void) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };
  get listening(): number {
    return this.listeners.size;
  }
  fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

describe('the agent sandbox policy is computed once until the settings or the folders change', function () {
  this.timeout(60_000);
  const runtime = new SandboxRuntime(SILENT_LOG);
  let h: Harness | undefined;
  let source: SandboxPolicySource | undefined;
  let root: string;
  let settings: SandboxSettingValues;
  let reads: number;
  let configuration: HostEvent;
  let folders: HostEvent;
  let workspaceFolders: string[];
  const open = (sources: SandboxPolicySource) => {
    h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: (use) => sources.policy(use) } });
    return h;
  };
  const refusedNow = (error: unknown) => {
    assert.ok(error instanceof TerminalError);
    assert.equal(error.code, 'SANDBOX_REQUIRED');
    assert.match(error.message, /opened while the agent sandbox was off, and the sandbox is on now \(dsh\.terminal\.sandbox is "on"\)/);
    return true;
  };

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-sandbox-policy-')));
    settings = { ...VALUES, dshMode: 'off' };
    reads = 0;
    configuration = new HostEvent();
    folders = new HostEvent();
    workspaceFolders = [path.join(root, 'workspace')];
    source = new SandboxPolicySource(
      () => {
        reads++;
        return { values: { ...settings }, workspaceFolders: [...workspaceFolders], storageFolder: path.join(root, 'storage') };
      },
      [configuration.event, folders.event],
      { tmpdir: root },
    );
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
    source?.dispose();
    await runtime.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('listing and sending to sessions outside the sandbox reads the settings once; after a change event the very next send is refused', async () => {
    const { service, owner } = open(source!);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await service.open(owner, { cwd: root })).sessionId);
    for (let i = 0; i < 200; i++) assert.equal(service.list(owner).length, 3);
    assert.equal((await service.send(owner, ids[0]!, { input: 'echo typed' })).exitCode, 0);
    assert.equal(reads, 1, 'three opens, 200 listings of three sessions and a send read the settings once');

    settings = { ...settings, dshMode: 'on' };
    assert.equal(service.list(owner)[0]!.inputRefused, undefined, 'until the change event the policy computed before it is used');
    configuration.fire();
    const late = path.join(root, 'late.txt');
    await assert.rejects(service.send(owner, ids[1]!, { input: `touch ${late}` }), refusedNow);
    assert.match(service.list(owner)[2]!.inputRefused ?? '', /the sandbox is on now/);
    for (let i = 0; i < 200; i++) service.list(owner);
    assert.equal(reads, 2, 'read again once after the change');
    await sleep(200);
    assert.ok(!fs.existsSync(late), 'nothing was typed');
  });

  it('a change event that comes while a send is in its checks refuses the send before it types', async () => {
    const { service, owner } = open(source!);
    const id = (await service.open(owner, { cwd: root })).sessionId;
    const late = path.join(root, 'late.txt');
    // The service's check has passed with the sandbox off; the session checks again after its awaits.
    const sending = service.send(owner, id, { input: `touch ${late}` });
    settings = { ...settings, dshMode: 'on' };
    configuration.fire();
    await assert.rejects(sending, refusedNow);
    await sleep(200);
    assert.ok(!fs.existsSync(late), 'nothing was typed');
  });

  it('a change of the workspace folders is read at the next use; a check does no file system work, a spawn makes sure the folders exist', () => {
    const first = source!.policy();
    assert.equal(reads, 1);
    assert.deepEqual(source!.policy('check'), first);
    assert.equal(reads, 1);
    workspaceFolders = [path.join(root, 'other')];
    folders.fire();
    const second = source!.policy();
    assert.equal(reads, 2);
    assert.ok(second.writableRoots.includes(path.join(root, 'other')), JSON.stringify(second.writableRoots));
    assert.ok(fs.statSync(second.tempFolder).isDirectory(), 'the temp folder exists once the policy is computed');
    assert.equal(path.dirname(second.tempFolder), root);
    assert.equal(fs.statSync(second.tempFolder).mode & 0o777, 0o700);

    // A tmp cleaner removed the temp folder, someone the storage folder: checks go on with the policy they have.
    fs.rmSync(second.tempFolder, { recursive: true });
    fs.rmSync(path.join(root, 'storage'), { recursive: true, force: true });
    assert.equal(source!.policy('check'), second);
    assert.ok(!fs.existsSync(second.tempFolder), 'a check does not touch the file system');
    const spawned = source!.policy('spawn');
    assert.notEqual(spawned.tempFolder, second.tempFolder, 'a new temp folder, never the removed one recreated');
    assert.ok(fs.statSync(spawned.tempFolder).isDirectory());
    assert.ok(spawned.writableRoots.includes(spawned.tempFolder) && !spawned.writableRoots.includes(second.tempFolder));
    assert.ok(fs.statSync(path.join(root, 'storage')).isDirectory(), 'the storage folder is made again');
    assert.equal(source!.policy('check'), spawned, 'later checks use the policy with the new folder');
    assert.equal(source!.policy('spawn'), spawned, 'a spawn whose folders exist uses the policy it has');

    source!.dispose();
    assert.ok(!fs.existsSync(spawned.tempFolder), 'dispose removes the temp folder');
    assert.equal(configuration.listening + folders.listening, 0, 'and stops listening');
  });
});

describe('programs that run outside the sandbox are looked up outside what it can write', () => {
  let root: string;
  beforeEach(() => (root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-which-')))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const tool = (file: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  };

  it('skips a writable PATH folder, one reached through a link, a link to a writable program, and a folder not made yet', () => {
    const workspace = path.join(root, 'workspace');
    const safe = path.join(root, 'usr', 'bin');
    tool(path.join(safe, 'bwrap'));
    tool(path.join(workspace, 'bin', 'bwrap'));
    fs.symlinkSync(path.join(workspace, 'bin'), path.join(root, 'linked-bin'));
    tool(path.join(workspace, 'real', 'bwrap'));
    fs.mkdirSync(path.join(root, 'home-bin'));
    fs.symlinkSync(path.join(workspace, 'real', 'bwrap'), path.join(root, 'home-bin', 'bwrap'));
    const notYet = path.join(workspace, '.venv', 'bin');
    const pathEnv = [path.join(workspace, 'bin'), path.join(root, 'linked-bin'), path.join(root, 'home-bin'), notYet, safe].join(':');
    assert.equal(which('bwrap', pathEnv, [workspace]), path.join(safe, 'bwrap'));
    assert.equal(which('bwrap', pathEnv), path.join(workspace, 'bin', 'bwrap'), 'without writable folders the first one is taken');
    assert.equal(writableFrom(notYet, [workspace]), true, 'a folder a sandboxed command could still make');
    assert.equal(writableFrom(path.join(root, 'workspace-other'), [workspace]), false, 'a sibling with the same prefix is not inside');
  });

  it('names the first folder that would supply a program started by name: writable, or relative; none once a safe one comes first', () => {
    const workspace = path.join(root, 'workspace');
    const safe = path.join(root, 'usr', 'bin');
    tool(path.join(safe, 'rg'));
    assert.equal(writableFolderBefore('rg', `${safe}:${workspace}/bin`, [workspace]), undefined);
    assert.equal(writableFolderBefore('rg', `${workspace}/bin:${safe}`, [workspace]), `${workspace}/bin`);
    assert.equal(writableFolderBefore('rg', `bin:${safe}`, [workspace]), 'bin');
    assert.equal(writableFolderBefore('rg', `${root}/empty:${workspace}/bin`, [workspace]), `${workspace}/bin`, 'no rg before it');
    assert.equal(
      writableFolderBefore('rg', `${root}/empty`, [workspace]),
      undefined,
      'no rg at all and nothing writable: the start fails harmlessly',
    );
  });

  it("the folders sandboxed commands can write, for the programs started outside it: the writable roots and the runtime's own, a denyRead home folder left out", async () => {
    const on = { ...VALUES, vscodeEnabled: 'on' };
    const folders = await sandboxWritableFolders(sandboxPolicy(on, FOLDERS, '/h'));
    for (const f of ['/w/one', '/s/store', '/t/tmp', '/tmp/claude', path.join(os.homedir(), '.npm/_logs')])
      assert.ok(folders.includes(f), `${f} in ${folders.join(', ')}`);
    const denied = await sandboxWritableFolders(
      sandboxPolicy({ ...on, fileSystem: { denyRead: [path.join(os.homedir(), '.npm')] } }, FOLDERS, '/h'),
    );
    assert.ok(!denied.includes(path.join(os.homedir(), '.npm/_logs')), denied.join(', '));
    assert.ok(denied.includes('/w/one'));
  });
});

describe('the bubblewrap command line keeps the PTY the controlling terminal and unshares IPC', () => {
  it('removes exactly --new-session and names bubblewrap by its absolute path', () => {
    const wrapped = "bwrap --new-session --die-with-parent --unshare-net --ro-bind / / -- /usr/bin/bash -c 'x --new-session'";
    assert.equal(
      keepControllingTerminal(wrapped, '/usr/bin/bwrap'),
      "/usr/bin/bwrap --die-with-parent --unshare-net --ro-bind / / -- /usr/bin/bash -c 'x --new-session'",
    );
    const viaFile =
      '/bin/sh -c \'exec 3<"$1" && shift && exec "$@"\' srt-args /proc/self/fd/9 bwrap --new-session --die-with-parent --args 3 -- bash';
    assert.match(
      keepControllingTerminal(viaFile, '/usr/bin/bwrap'),
      / srt-args \/proc\/self\/fd\/9 \/usr\/bin\/bwrap --die-with-parent --args 3 -- bash$/,
    );
  });

  it('gives the sandbox an IPC namespace of its own: --unshare-ipc after --die-with-parent, once', () => {
    const kept = "/bin/sh -c 'x' srt-args /proc/self/fd/9 /usr/bin/bwrap --die-with-parent --args 3 -- bash -c 'y --die-with-parent z'";
    assert.equal(
      unshareIpc(kept, '/usr/bin/bwrap'),
      "/bin/sh -c 'x' srt-args /proc/self/fd/9 /usr/bin/bwrap --die-with-parent --unshare-ipc --args 3 -- bash -c 'y --die-with-parent z'",
    );
    assert.throws(
      () => unshareIpc('/usr/bin/bwrap --new-session --die-with-parent a', '/usr/bin/bwrap'),
      SandboxCommandShapeError,
      'only after --new-session is dropped',
    );
    assert.throws(
      () => unshareIpc('/usr/bin/bwrap --die-with-parent a; /usr/bin/bwrap --die-with-parent b', '/usr/bin/bwrap'),
      SandboxCommandShapeError,
    );
  });

  it('refuses a command line of another shape instead of starting it', () => {
    assert.throws(() => keepControllingTerminal('bwrap --die-with-parent -- bash', '/usr/bin/bwrap'), SandboxCommandShapeError);
    assert.throws(
      () => keepControllingTerminal('bwrap --new-session --die-with-parent a; bwrap --new-session --die-with-parent b', '/usr/bin/bwrap'),
      SandboxCommandShapeError,
    );
    assert.throws(() => keepControllingTerminal('bwrap --new-session --die-with-parent a', 'bwrap'), SandboxCommandShapeError);
    assert.equal(
      keepControllingTerminal('/usr/bin/bwrap --new-session --die-with-parent a', '/usr/bin/bwrap'),
      '/usr/bin/bwrap --die-with-parent a',
    );
  });
});

/**
 * True where this process's session leader lies outside its pid namespace (/proc shows session 0),
 * as in CI's container-like pid namespace. There, seen from outside the sandbox, the shell's
 * terminal is named by another devpts path and a background job can outlive close: known defects of
 * sandboxed sessions in nested pid namespaces, still open on the sandbox issue; the two tests that
 * show them skip there and run everywhere else.
 */
const nestedPidNamespace = readStat(process.pid)?.session === 0;

describe('sandboxed sessions (real bubblewrap, real node-pty, real bash)', function () {
  this.timeout(120_000);
  const runtime = new SandboxRuntime(SILENT_LOG);
  let h: Harness;
  let id: string;
  let root: string;
  let workspace: string;
  let outside: string;
  let denied: string;
  let current: SandboxPolicy;
  const policy = (v: Partial<SandboxSettingValues> = {}) =>
    sandboxPolicy(
      { ...VALUES, dshMode: 'on', fileSystem: { denyRead: [denied] }, ...v },
      { workspaceFolders: [workspace], tempFolder: path.join(root, 'tmp') },
    );
  const open = async (p: SandboxPolicy = policy(), env: Record<string, string | null> = {}) => {
    current = p;
    leadersBefore = childSessionLeaders().map((l) => l.pid);
    h = harness({ quietThresholdMs: 6_000, env }, { sandbox: { runtime, policy: () => current } });
    id = (await h.service.open(h.owner, { cwd: fs.realpathSync(workspace), exactCwd: true })).sessionId;
    return h.service.list(h.owner)[0]!;
  };
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });

  beforeEach(() => {
    ({ root, workspace, outside, denied } = sandboxFolders('dsh-sandbox-'));
    fs.writeFileSync(path.join(denied, 'secret.txt'), 'the secret\n');
  });
  afterEach(async () => {
    await h?.dispose();
    await runtime.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes only inside the writable roots, cannot read a denyRead path, and says so in its info', async () => {
    const info = await open();
    assert.equal(info.sandbox.on, true);
    assert.equal(info.sandbox.network, 'all');
    assert.ok(info.sandbox.writableRoots.includes(workspace), JSON.stringify(info.sandbox));
    const inside = await send(`echo in > ${workspace}/in.txt && echo WROTE`);
    assert.equal(inside.exitCode, 0, inside.output);
    assert.equal(fs.readFileSync(path.join(workspace, 'in.txt'), 'utf8'), 'in\n');
    const out = await send(`echo out > ${outside}/out.txt`);
    assert.notEqual(out.exitCode, 0);
    assert.match(out.output, /Read-only file system|Permission denied/);
    assert.ok(!fs.existsSync(path.join(outside, 'out.txt')), 'nothing was written outside');
    const home = await send(`touch ${os.homedir()}/dsh-sandbox-probe`);
    assert.notEqual(home.exitCode, 0, home.output);
    const read = await send(`cat ${denied}/secret.txt`);
    assert.notEqual(read.exitCode, 0);
    assert.doesNotMatch(read.output, /the secret/);
  });

  it('keeps the PTY the controlling terminal: job control, the foreground group, tty names the PTY', async function () {
    if (nestedPidNamespace) this.skip(); // reason at nestedPidNamespace
    await open();
    const jobs = await send('set -o | grep -E "^monitor"; sleep 100 & jobs -l | wc -l; kill %1');
    assert.match(jobs.output, /monitor\s+on/);
    assert.doesNotMatch(jobs.output, /no job control/);
    // The terminal the shell reads is the session's PTY (inside, bubblewrap names it /dev/console).
    const shell = findShell(h);
    assert.ok(shell > 0, 'the shell holds the foreground in a group of its own');
    const ptsPath = fs.readlinkSync(`/proc/${shell}/fd/0`);
    assert.match(ptsPath, /^\/dev\/pts\/\d+$/);
    const rdev = fs.statSync(ptsPath).rdev;
    const inside = await send('tty && stat -L -c "%t:%T" "$(tty)"');
    assert.equal(inside.exitCode, 0, inside.output);
    const [, major, minor] = /([0-9a-f]+):([0-9a-f]+)\s*$/.exec(inside.output) ?? [];
    assert.equal((Number.parseInt(major!, 16) << 8) | Number.parseInt(minor!, 16), rdev, `${inside.output} vs ${ptsPath}`);
  });

  it('readiness inside as outside: exit code, input(), a password prompt, SIGINT to a foreground sleep, vim', async () => {
    await open();
    const fail = await send('false');
    assert.deepEqual([fail.waitReason, fail.waiting, fail.exitCode], ['stdin_read', 'shell-prompt', 1]);
    const question = await send(`python3 -c "print('answer:', input('name? '))"`);
    assert.deepEqual([question.waitReason, question.waiting], ['stdin_read', 'program-input']);
    const answer = await send('sandbox');
    assert.match(answer.output, /answer: sandbox/);
    assert.equal(answer.exitCode, 0);
    const password = await send('read -s -p "Password: " pw; echo "got ${#pw}"');
    assert.deepEqual([password.waiting, password.echoOff], ['program-input', true]);
    // A password prompt is the person's: the agent's text is refused, the person's one line goes through.
    await assert.rejects(send('hunter2'), (e: Error & { code?: string }) => e.code === 'PERSON_MUST_ANSWER');
    assert.equal(h.service.takeOverLine(h.owner, id), true);
    h.service.writeUserInput(h.owner, id, 'hunter2\r');
    await until('the read to return', () => /got 7/.test(h.service.read(h.owner, id).text));
    const sleeping = await send('sleep 60', 1500);
    assert.equal(sleeping.waitReason, 'timeout');
    assert.match(sleeping.foreground?.command ?? '', /^sleep 60/);
    const signalled = h.service.signal(h.owner, id, 'SIGINT');
    assert.equal(signalled.delivered, true);
    const after = await send('echo back');
    assert.match(after.output, /back/);
    const vim = await send('vim -u NONE -N -i NONE', 10_000);
    assert.deepEqual([vim.waitReason, vim.alternateScreen], ['stdin_read', true]);
    const quit = await h.service.send(h.owner, id, { keys: [':', 'q', '!', 'Enter'] });
    assert.equal(quit.waiting, 'shell-prompt');
  });

  it('a background job is ended when the session closes', async function () {
    if (nestedPidNamespace) this.skip(); // reason at nestedPidNamespace
    await open();
    const bg = await send('sleep 300 & echo "job $!"');
    assert.equal(bg.exitCode, 0);
    const sleeps = () => harnessProcesses(h).filter((p) => p.comm === 'sleep');
    // The job's process is bash until its exec of sleep, which a busy machine may run after the prompt.
    await until('the job to run sleep', () => sleeps().length === 1, 10_000);
    const leader = h.service.list(h.owner)[0]!;
    const all = harnessProcesses(h).map((p) => p.pid);
    await h.service.close(h.owner, leader.sessionId, 'test');
    for (const pid of all) assert.equal(readStat(pid) === undefined || readStat(pid)?.state === 'Z', true, `pid ${pid} is gone`);
  });

  it('a program that types into the terminal (TIOCSTI) reaches only the sandboxed shell', async () => {
    await open();
    const target = path.join(outside, 'injected.txt');
    // The injected line ends with a newline (chr(10)): the shell reads and runs it after python exits.
    const inject = await send(
      `python3 -c 'import fcntl, termios, sys; [fcntl.ioctl(0, termios.TIOCSTI, bytes([b])) for b in (sys.argv[1] + chr(10)).encode()]' 'touch ${target}; echo INJECTED-$((6*7))'`,
    );
    assert.equal(inject.exitCode, 0, inject.output);
    await until('the injected line to run', () => /INJECTED-42/.test(h.service.read(h.owner, id, { count: 50 }).text), 10_000);
    await sleep(200);
    assert.ok(!fs.existsSync(target), 'the injected command ran inside the sandbox: it could not write outside');
    assert.match(h.service.read(h.owner, id, { count: 50 }).text, /Read-only file system|Permission denied/);
  });

  it('network: allowNetwork false with no domains cannot reach a server on 127.0.0.1 outside; with the domain allowed it can', async () => {
    const server = http.createServer((_req, res) => res.end('hello from outside\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const opened = await open(policy({ allowNetwork: false }));
      assert.equal(opened.sandbox.network, 'none');
      const blocked = await send(
        `curl -sS --max-time 5 --noproxy '' http://127.0.0.1:${port}/; echo "rc=$?"; curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/; echo "rc=$?"`,
      );
      assert.doesNotMatch(blocked.output, /hello from outside/);
      await h.dispose();
      const allowed = await open(policy({ allowNetwork: false, allowedDomains: ['127.0.0.1'] }));
      assert.deepEqual(allowed.sandbox.network, { allowedDomains: ['127.0.0.1'], deniedDomains: [] });
      const through = await send(`curl -sS --max-time 5 --noproxy '' http://127.0.0.1:${port}/`);
      assert.match(through.output, /hello from outside/);
    } finally {
      server.close();
    }
  });

  it('a confirmed grant starts the session outside the sandbox where allowUnsandboxedCommands is true; the info says so', async () => {
    current = policy({ allowUnsandboxedCommands: true });
    h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: () => current } });
    const info = await h.service.open(h.owner, { cwd: workspace }, { outsideSandbox: true });
    id = info.sessionId;
    assert.deepEqual(info.sandbox, { on: false, outsideApproved: true, network: 'all', writableRoots: [] });
    assert.deepEqual(h.service.list(h.owner)[0]!.sandbox, info.sandbox, 'the list shows it');
    const out = await send(`echo out > ${outside}/out.txt && cat ${denied}/secret.txt`);
    assert.equal(out.exitCode, 0, out.output);
    assert.equal(fs.readFileSync(path.join(outside, 'out.txt'), 'utf8'), 'out\n');
    assert.ok(
      h.log.lines.some((l) => /session outside the agent sandbox .*confirmed by the person/.test(l)),
      h.log.lines.join('\n'),
    );
    // Another session of the same backend without a grant is sandboxed.
    const next = await h.service.open(h.owner, { cwd: workspace });
    assert.equal(next.sandbox.on, true);
    assert.equal(next.sandbox.outsideApproved, undefined);
  });

  it('a grant the policy does not allow is refused with why, and no shell is started; the facade for other extensions passes no grant', async () => {
    current = policy({ allowUnsandboxedCommands: false });
    h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: () => current } });
    const before = shellsOf();
    await assert.rejects(h.service.open(h.owner, { cwd: workspace }, { outsideSandbox: true }), (error: unknown) => {
      assert.ok(error instanceof TerminalError);
      assert.equal(error.code, 'SANDBOX_REQUIRED');
      assert.match(error.message, /not allowed: chat\.agent\.sandbox\.allowUnsandboxedCommands is false.*No session was started/);
      return true;
    });
    assert.deepEqual(shellsOf(), before, 'no shell process was started');
    assert.deepEqual(h.service.list(h.owner), []);
    current = policy({ allowUnsandboxedCommands: true });
    const api = createTerminalApi(h.service);
    const handle = api.createOwner('another extension');
    const opened = await api.open(handle, { cwd: workspace, outsideSandbox: true } as unknown as Parameters<typeof api.open>[1]);
    assert.equal(opened.sandbox.on, true, 'an option named like the grant is ignored');
    handle.dispose();
  });

  it('keeps what makes git run commands outside unwritable in nested repositories and submodules too', async () => {
    // VS Code's git extension runs git in the repositories it finds in a workspace folder, outside
    // any sandbox: a core.fsmonitor or a hook written there from inside would run outside.
    const git = (...args: string[]) => gitIn(undefined, ...args);
    const upstream = path.join(outside, 'upstream');
    git('init', '-q', upstream);
    git('-C', upstream, 'commit', '-q', '--allow-empty', '-m', 'first');
    git('init', '-q', workspace);
    git('-C', workspace, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'sub');
    git('init', '-q', path.join(workspace, 'nested', 'repo'));
    const ran = path.join(outside, 'ran-outside');
    await open();
    for (const repo of ['nested/repo', 'sub']) {
      const config = await send(`git -C ${workspace}/${repo} config core.fsmonitor "touch ${ran}; false"`);
      assert.notEqual(config.exitCode, 0, `${repo}: ${config.output}`);
      const hook = await send(
        `echo 'touch ${ran}' > ${workspace}/${repo}/.git/hooks/pre-commit 2>/dev/null || echo 'touch ${ran}' > "$(git -C ${workspace}/${repo} rev-parse --git-path hooks)/pre-commit"`,
      );
      assert.notEqual(hook.exitCode, 0, `${repo}: ${hook.output}`);
    }
    const gitFile = await send(`echo 'gitdir: ${outside}' > ${workspace}/sub/.git`);
    assert.notEqual(gitFile.exitCode, 0, "a submodule's .git file cannot point elsewhere");
    const status = await send(`git -C ${workspace}/nested/repo status --short && echo GIT-WORKS`);
    assert.match(status.output, /GIT-WORKS/, 'git itself still works inside');
    for (const repo of ['nested/repo', 'sub']) git('-C', path.join(workspace, repo), 'status');
    assert.ok(!fs.existsSync(ran), 'nothing written inside ran outside');
    assert.equal(fs.readFileSync(path.join(workspace, 'sub', '.git'), 'utf8'), 'gitdir: ../.git/modules/sub\n');
  });

  it('cannot write the open .code-workspace file in a workspace folder (its settings, tasks and dsh.lsp.servers run outside)', async () => {
    const workspaceFile = path.join(workspace, 'project.code-workspace');
    const original = '{ "folders": [{ "path": "." }], "settings": {} }\n';
    fs.writeFileSync(workspaceFile, original);
    const p = sandboxPolicy(
      { ...VALUES, dshMode: 'on' },
      { workspaceFolders: [workspace], tempFolder: path.join(root, 'tmp'), workspaceFile },
    );
    assert.ok(p.denyWrite.includes(workspaceFile), JSON.stringify(p.denyWrite));
    await open(p);
    const settings =
      '{ "folders": [{ "path": "." }], "settings": { "dsh.lsp.servers": [{ "command": "/bin/sh", "args": ["-c", "touch /tmp/x"], "extensions": [".zz"] }] } }';
    const write = await send(`echo '${settings}' > ${workspaceFile}`);
    assert.notEqual(write.exitCode, 0, write.output);
    const replace = await send(`echo '${settings}' > ${workspace}/new && mv -f ${workspace}/new ${workspaceFile}`);
    assert.notEqual(replace.exitCode, 0, replace.output);
    assert.equal(fs.readFileSync(workspaceFile, 'utf8'), original);
    assert.equal((await send(`echo other > ${workspace}/other.txt`)).exitCode, 0, 'the rest of the folder stays writable');
  });

  it('a session opened outside the sandbox takes no input once the sandbox is on; one approved outside only while the settings still allow it', async () => {
    await open(policy({ dshMode: 'off' }));
    assert.equal((await send('echo before')).exitCode, 0);
    current = policy();
    const late = path.join(outside, 'late.txt');
    const refusedBecause = (why: RegExp) => (error: unknown) => {
      assert.ok(error instanceof TerminalError);
      assert.equal(error.code, 'SANDBOX_REQUIRED');
      assert.match(error.message, /^this session runs outside the agent sandbox: .*Nothing was typed.*close this session/);
      assert.match(error.message, why);
      return true;
    };
    const refused = refusedBecause(/opened while the agent sandbox was off, and the sandbox is on now \(dsh\.terminal\.sandbox is "on"\)/);
    await assert.rejects(send(`touch ${late}`), refused);
    await assert.rejects(h.service.send(h.owner, id, { keys: ['Enter'] }), refused);
    assert.throws(() => h.service.startBackground(h.owner, id, { input: `touch ${late}` }), refused);
    await sleep(300);
    assert.ok(!fs.existsSync(late), 'nothing ran outside the sandbox');
    assert.ok(h.service.read(h.owner, id, { count: 10 }).text.includes('before'), 'what it printed can still be read');
    current = policy({ dshMode: 'off' });
    assert.equal((await send('echo after')).exitCode, 0, 'with the sandbox off again it takes input again');
    await h.dispose();

    current = policy({ allowUnsandboxedCommands: true });
    h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: () => current } });
    id = (await h.service.open(h.owner, { cwd: workspace }, { outsideSandbox: true })).sessionId;
    assert.equal((await send('echo approved')).exitCode, 0);
    current = policy({ allowUnsandboxedCommands: false });
    await assert.rejects(
      send(`touch ${late}`),
      refusedBecause(
        /approved outside the agent sandbox, and the settings no longer allow a session outside it \(chat\.agent\.sandbox\.allowUnsandboxedCommands is false/,
      ),
    );
    assert.ok(!fs.existsSync(late));
  });

  it('leaves no placeholder in the workspace folder once its sandboxed sessions are closed, also when they overlapped', async () => {
    const entries = () => fs.readdirSync(workspace).sort();
    assert.deepEqual(entries(), []);
    const first = await open();
    // While a sandboxed session runs, the runtime's mount points for absent protected paths (.bashrc, .claude, …) show on the host.
    assert.ok(entries().includes('.bashrc'), entries().join(' '));
    const second = await h.service.open(h.owner, { cwd: workspace });
    await h.service.close(h.owner, first.sessionId, 'test');
    assert.ok(entries().includes('.bashrc'), 'kept while another sandboxed session needs them');
    await h.service.close(h.owner, second.sessionId, 'test');
    assert.deepEqual(entries(), [], 'nothing is left once the last sandboxed session closed');
  });

  it('opens sandboxed sessions one after another under the one frozen policy object a SandboxPolicySource shares', async () => {
    const values = { ...VALUES, dshMode: 'on', fileSystem: { denyRead: [denied] }, allowNetwork: false, allowedDomains: ['127.0.0.1'] };
    const source = new SandboxPolicySource(() => ({ values, workspaceFolders: [workspace] }), [], { tmpdir: root });
    try {
      h = harness({ quietThresholdMs: 6_000 }, { sandbox: { runtime, policy: (use) => source.policy(use) } });
      const shared = source.policy();
      assert.ok(
        Object.isFrozen(shared) && Object.isFrozen(shared.denyRead) && Object.isFrozen(shared.network),
        'the policy every use shares cannot be changed by one of them',
      );
      for (const name of ['first', 'second']) {
        id = (await h.service.open(h.owner, { name, cwd: workspace })).sessionId;
        const info = h.service.list(h.owner).find((s) => s.sessionId === id)!;
        assert.equal(info.sandbox.on, true);
        assert.deepEqual(info.sandbox.network, { allowedDomains: ['127.0.0.1'], deniedDomains: [] });
        const out = await send(`cat ${denied}/secret.txt; echo x > "$TMPDIR/${name}" && echo wrote-${name}`);
        assert.doesNotMatch(out.output, /the secret/);
        assert.match(out.output, new RegExp(`wrote-${name}`));
      }
      assert.equal(source.policy('spawn'), shared, 'both opens used the policy computed once');
      assert.ok(fs.existsSync(path.join(shared.tempFolder, 'second')), "TMPDIR is the source's temp folder");
    } finally {
      await h.dispose();
      source.dispose();
    }
  });

  it('never starts the programs that run outside the sandbox from a folder a sandboxed command can write', async () => {
    // A folder of the workspace on PATH (a virtualenv's bin, direnv's PATH_add): a sandboxed command
    // writes bwrap, socat, rg or which there, and the next open would run it outside the sandbox.
    const bin = path.join(workspace, '.venv', 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const ran = path.join(outside, 'ran-outside');
    for (const program of ['bwrap', 'socat', 'rg', 'which']) {
      fs.writeFileSync(path.join(bin, program), `#!/bin/sh\necho ${program} >> ${ran}\nexec ${execPath(program)} "$@"\n`, { mode: 0o755 });
    }
    const hostPath = process.env.PATH;
    const realRg = execPath('rg');
    // The session's PATH, on which bubblewrap and socat are looked up: the ones outside the workspace are taken.
    await open(policy({ allowNetwork: false, allowedDomains: ['127.0.0.1'] }), { PATH: `${bin}:${hostPath}` });
    assert.match((await send('echo inside')).output, /inside/, 'the session works with the programs found elsewhere');
    await h.dispose();
    // The extension host's PATH, on which the runtime starts rg and which by name: no session while it would take the workspace's.
    process.env.PATH = `${bin}:${hostPath}`;
    try {
      await assert.rejects(open(), (error: unknown) => {
        assert.ok(error instanceof TerminalError && error.code === 'SANDBOX_UNAVAILABLE', String(error));
        assert.match(
          error.message,
          new RegExp(
            `runs rg from the extension host's PATH outside the sandbox, and "${bin}" comes first on that PATH, where sandboxed commands can write`,
          ),
        );
        return true;
      });
      // rg from a safe folder first, and which still from the workspace's.
      const rgOnly = path.join(outside, 'rg-only');
      fs.mkdirSync(rgOnly);
      fs.symlinkSync(realRg, path.join(rgOnly, 'rg'));
      process.env.PATH = `${rgOnly}:${bin}:${hostPath}`;
      await assert.rejects(open(), /runs which from the extension host's PATH outside the sandbox/);
    } finally {
      process.env.PATH = hostPath;
    }
    assert.ok(
      !fs.existsSync(ran),
      `ran outside the sandbox: ${fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8').trim().split('\n').join(', ') : ''}`,
    );
  });

  it('fails closed: without bubblewrap on PATH the open fails with the install hint and no shell is left', async () => {
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    for (const program of ['bash', 'sh', 'socat']) fs.symlinkSync(execPath(program), path.join(bin, program));
    const before = shellsOf();
    await assert.rejects(open(policy(), { PATH: bin }), (error: unknown) => {
      assert.ok(error instanceof TerminalError);
      assert.equal(error.code, 'SANDBOX_UNAVAILABLE');
      assert.match(error.message, /bubblewrap \(bwrap\) not found on PATH; install them with `sudo apt-get install bubblewrap socat`/);
      return true;
    });
    assert.deepEqual(h.service.list(h.owner), []);
    assert.deepEqual(shellsOf(), before, 'no shell process was started');
    assert.ok(!h.log.lines.some((l) => /sandboxed session/.test(l)), 'nothing was spawned');
  });
});

/**
 * Session leaders among the test's children that existed before the harness opened its session:
 * not the harness's (an earlier test file may leave sessions of its own running).
 */
let leadersBefore: number[] = [];

/** The session leaders among this test process's children (node-pty's children). */
function childSessionLeaders(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => readStat(Number(n)))
    .filter((s): s is ProcStat => !!s && s.ppid === process.pid && s.session === s.pid);
}

/** The pid of the sandboxed shell: the foreground process group of the session's terminal at its prompt. */
function findShell(h: Harness): number {
  return harnessProcesses(h).find((p) => p.pgrp === p.pid && p.comm === 'bash' && p.tpgid === p.pid)?.pid ?? 0;
}

/** Every process of the harness's one session (its session id is node-pty's child, started after leadersBefore was read). */
function harnessProcesses(h: Harness): ProcStat[] {
  const leader = childSessionLeaders().filter((l) => !leadersBefore.includes(l.pid));
  assert.ok(leader.length > 0, `no session leader among the test's children (${h.service.list(h.owner).length} sessions)`);
  return leader.flatMap((l) => sessionProcesses(l.pid, l.startTime));
}

/** This test process's children that run a shell on an rc file (a session's shell or its sandbox launcher). */
function shellsOf(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => readStat(pid)?.ppid === process.pid && (proc.procArgs(pid) ?? '').includes('--rcfile'));
}

function execPath(program: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = path.join(dir, program);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${program} not on PATH`);
}
