/**
 * `npm run bench:sandbox`: what the agent sandbox adds to a session, on the pty-bash backend in
 * the real sandbox runtime (bubblewrap, socat, its seccomp helper). Prints figures, asserts nothing.
 * For each of unsandboxed, sandboxed with all network and sandboxed with no network: the open time
 * (from the call to the first prompt, ms) of DSH_BENCH_OPENS sessions (default 5; the first
 * sandboxed open with no network also starts the runtime's proxies, shown apart), then
 * DSH_BENCH_SENDS sends (default 200) of `true`, each timed from the call to its `stdin_read` (ms):
 * median and p95 beside each other, and the added open and send time against the goals (+300 ms
 * open, +2 ms median send). Sessions get an empty HOME so the user's ~/.bashrc is not measured.
 * The load average is printed beside the figures: the machine may be shared.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as pty from 'node-pty';
import { resolveTerminalConfig } from '../src/terminal/config';
import { PtyBashBackend } from '../src/terminal/bash/ptyBash';
import { SandboxPolicy, sandboxPolicy } from '../src/terminal/sandbox/policy';
import { SandboxRuntime } from '../src/terminal/sandbox/runtime';
import { TerminalService } from '../src/terminal/service';
import { now, quantile } from '../test/bench/timing';
import { SILENT_LOG } from '../src/common/log';

const OPENS = Number(process.env.DSH_BENCH_OPENS ?? 5);
const SENDS = Number(process.env.DSH_BENCH_SENDS ?? 200);
const GOAL = { openMs: 300, sendMs: 2 };
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

interface Figures {
  opens: number[];
  sends: number[];
}

async function measure(root: string, policy: SandboxPolicy | undefined, runtime: SandboxRuntime): Promise<Figures> {
  const log = SILENT_LOG;
  const service = new TerminalService(log);
  const home = fs.mkdtempSync(path.join(root, 'home-'));
  const config = resolveTerminalConfig({ env: { HOME: home } });
  service.registerBackend(new PtyBashBackend(pty, () => config, log, policy ? { sandbox: { runtime, policy: () => policy } } : {}));
  const owner = service.createOwner('bench');
  const opens: number[] = [];
  let id = '';
  for (let i = 0; i < OPENS; i++) {
    const t = now();
    id = (await service.open(owner, { cwd: policy?.writableRoots[0] ?? root })).sessionId;
    opens.push(now() - t);
    if (i < OPENS - 1) await service.close(owner, id, 'bench');
  }
  const sends: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const t = now();
    const r = await service.send(owner, id, { input: 'true' });
    sends.push(now() - t);
    if (r.waitReason !== 'stdin_read') throw new Error(`send ${i} returned ${r.waitReason}`);
  }
  await service.close(owner, id, 'bench');
  return { opens, sends };
}

async function main(): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-sandbox-')));
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  fs.mkdirSync(path.join(root, 'tmp'));
  const runtime = new SandboxRuntime(SILENT_LOG);
  const policy = (allowNetwork: boolean) =>
    sandboxPolicy(
      {
        dshMode: 'on',
        vscodeEnabled: 'off',
        vscodeEnabledSource: 'default',
        allowNetwork,
        allowedDomains: [],
        deniedDomains: [],
        fileSystem: {},
        allowUnsandboxedCommands: true,
      },
      { workspaceFolders: [workspace], tempFolder: path.join(root, 'tmp') },
    );
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores; ${OPENS} opens and ${SENDS} sends of \`true\` each`,
  );
  try {
    const rows: [string, Figures][] = [
      ['unsandboxed', await measure(root, undefined, runtime)],
      ['sandboxed, all network', await measure(root, policy(true), runtime)],
      ['sandboxed, no network', await measure(root, policy(false), runtime)],
    ];
    const base = rows[0]![1];
    console.log('session                     open median  open p95   send median  send p95');
    for (const [name, f] of rows) {
      console.log(
        `${name.padEnd(27)} ${fmt(quantile(f.opens, 0.5)).padStart(11)} ${fmt(quantile(f.opens, 0.95)).padStart(9)} ${fmt(quantile(f.sends, 0.5)).padStart(12)} ${fmt(quantile(f.sends, 0.95)).padStart(9)}`,
      );
    }
    for (const [name, f] of rows.slice(1)) {
      const open = quantile(f.opens, 0.5) - quantile(base.opens, 0.5);
      const send = quantile(f.sends, 0.5) - quantile(base.sends, 0.5);
      console.log(
        `${name}: +${fmt(open)} open (goal ≤ +${GOAL.openMs} ms), +${fmt(send)} median send (goal ≤ +${GOAL.sendMs} ms); first open ${fmt(f.opens[0]!)}`,
      );
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  console.log(
    `load average after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.exit(0);
}

void main();
