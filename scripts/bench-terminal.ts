/**
 * `npm run bench:terminal`: what a waiting send costs and how fast sends return, on the pty-bash
 * backend, and the readiness latency of the pty-zsh backend beside it. Prints figures, asserts
 * nothing.
 * - waiting: the CPU (process.cpuUsage() of this process, which holds the session as the extension
 *   host does) during one send of `sleep N` that waits N seconds, as a share of one core, with
 *   about 100 and with about 3 000 other processes on the machine (idle `sleep`s this script
 *   starts in one process group and ends again), and the ratio of the two: it should stay flat.
 *   Beside it the same process's CPU over the same time with the session open and no send (what
 *   it costs anyway), and the difference;
 * readiness latency:
 * - session: 200 sends of `true` through TerminalService, each timed from the call to its
 *   `stdin_read` result (ms, wall clock), in a session whose HOME is an empty folder, so that the
 *   user's ~/.bashrc (a PROMPT_COMMAND hook such as pyenv's runs at every prompt) is not measured;
 * - raw: 200 round trips of `echo tokN` on a bare node-pty bash (no markers, no probe), each timed
 *   from the write to the moment its output and the next prompt arrived (ms);
 * - the same two for zsh: 200 sends on pty-zsh (HOME an empty folder), 200 round trips on a bare
 *   `zsh -f -i`;
 * then median and p95 of each side by side, and the added latency of a send per shell (median
 * session minus median raw of that shell) against its goal of at most 10 ms, and zsh's added
 * latency against bash's (goal: within 1 ms): with /proc a send returns on the
 * prompt marker itself (readiness.ts), so it adds the marker's parsing and one read of the shell's
 * /proc stat, not a poll interval or the prompt grace.
 * ports: what reading a session's listening sockets adds to a send (the look at the session's
 * processes, their descriptors and the socket tables of their network namespace, sessionProcesses.ts),
 * on a machine with about 3 000 processes and 10 000 sockets (idle `sleep`s, and idle python
 * processes holding 2 000 listening TCP sockets, 1 000 bound UDP sockets and 3 500 connected TCP
 * pairs), with the session's own server listening so that the tables are read: wall time of the
 * look with the tables read (the first look after TABLES_TTL_MS) and reused (looks in a row), median
 * and p95, and the send of `true` with it, against the goal of at most 2 ms.
 * list: what `dsh_terminal_list` costs (the scan of the machine for the session's mark, see
 * listCost) and a send beside it, in a session that started 1 000 background processes, with about
 * 3 000 processes on the machine: median and max wall time, and the longest this thread was held.
 * Environment: DSH_BENCH_SENDS (default 200), DSH_BENCH_WAIT_S (seconds of the waiting send,
 * default 10), DSH_BENCH_LATENCY_ONLY=1 (only the readiness latency), DSH_BENCH_PORTS_ONLY=1 (only
 * the ports), DSH_BENCH_LIST_ONLY=1 (only the list).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as pty from 'node-pty';
import { resolveTerminalConfig } from '../src/terminal/config';
import { PtyBashBackend } from '../src/terminal/bash/ptyBash';
import { PtyZshBackend } from '../src/terminal/zsh/ptyZsh';
import type { ShellName } from '../src/terminal/session/shellDialect';
import { TerminalService } from '../src/terminal/service';
import { now, quantile } from '../test/bench/timing';
import { startLagProbe } from '../test/helpers/eventLoopLag';
import { SILENT_LOG } from '../src/common/log';
import { ListeningSocketReader } from '../src/proc/listeningSockets';
import { readStat } from '../src/proc/stat';

const SENDS = Number(process.env.DSH_BENCH_SENDS ?? 200);
/** Goal of the added latency of a send of `true` over a raw PTY round trip (median, ms). */
const ADDED_GOAL_MS = 10;
/** Goal of zsh's added latency over bash's (median, ms). */
const ZSH_OVER_BASH_GOAL_MS = 1;
const WAIT_S = Number(process.env.DSH_BENCH_WAIT_S ?? 10);

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function session(shell: ShellName): Promise<number[]> {
  const log = SILENT_LOG;
  const service = new TerminalService(log, undefined, () => `pty-${shell}`);
  const config = resolveTerminalConfig();
  service.registerBackend(shell === 'zsh' ? new PtyZshBackend(pty, () => config, log) : new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('bench');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-home-'));
  const { sessionId } = await service.open(owner, { env: { HOME: home }, cwd: home });
  const times: number[] = [];
  try {
    for (let i = 0; i < SENDS; i++) {
      const t = now();
      const r = await service.send(owner, sessionId, { input: 'true' });
      times.push(now() - t);
      if (r.waitReason !== 'stdin_read' || r.waiting !== 'shell-prompt') throw new Error(`send ${i}: ${r.waitReason}/${r.waiting}`);
    }
  } finally {
    await service.close(owner, sessionId, 'bench done');
    fs.rmSync(home, { recursive: true, force: true });
  }
  return times;
}

async function raw(shell: ShellName): Promise<number[]> {
  const prompt = '__P__ ';
  const term = pty.spawn(shell, shell === 'zsh' ? ['-f', '-i'] : ['--norc', '--noprofile', '-i'], {
    name: 'xterm-256color',
    cols: 120,
    rows: 30,
    env: { ...process.env, PS1: prompt, PROMPT_COMMAND: '' },
  });
  let buffer = '';
  let waiter: (() => void) | undefined;
  term.onData((d) => {
    buffer += d;
    waiter?.();
  });
  const until = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (pattern.test(buffer)) {
          waiter = undefined;
          buffer = '';
          resolve();
        }
      };
      waiter = check;
      check();
    });
  // Readline and zle may follow the prompt with mode switches or an erase (ESC [?2004h, ESC [K):
  // match around them.
  const ready = /__P__ (?:\x1b\[[0-9;?]*[A-Za-z])*$/;
  await until(ready);
  const times: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const t = now();
    term.write(`echo tok${i}\n`);
    await until(new RegExp(`[\\r\\n]tok${i}\\r\\n[^]*${ready.source}`));
    times.push(now() - t);
  }
  term.kill();
  return times;
}

/** Processes on the machine now (numeric entries of /proc). */
const processCount = () => fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;

/**
 * Starts `count` idle `sleep` processes in a process group of their own and resolves once all
 * were started; the returned function ends the group.
 */
async function extraProcesses(count: number): Promise<() => void> {
  if (count <= 0) return () => {};
  // The loop says `started` once every sleep was forked; `wait` keeps the group's leader alive.
  const child = spawn('bash', ['-c', `for i in $(seq ${count}); do sleep 3600 & done; echo started; wait`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const end = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
    child.once('exit', () => reject(new Error(`the shell starting ${count} extra processes exited early`)));
  });
  return end;
}

/**
 * One send of `sleep WAIT_S` through TerminalService: this process's CPU time during it (user +
 * system, process.cpuUsage) as a share of one core over its wall time, and the machine's process count.
 */
async function waitingSend(extra: number): Promise<{ share: number; idle: number; processes: number; waitReason: string; looks: string }> {
  let looks = '?';
  const log = { ...SILENT_LOG, info: (m: string) => void (looks = /, (\d+) looks/.exec(m)?.[1] ?? looks) };
  const service = new TerminalService(log);
  const config = resolveTerminalConfig();
  service.registerBackend(new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('bench');
  const end = await extraProcesses(extra);
  try {
    const { sessionId } = await service.open(owner);
    try {
      // A first waiting send warms up the code paths it takes (the first one of a process is
      // compiled on the way and costs several times more).
      await service.send(owner, sessionId, { input: 'sleep 2' });
      // The same time with the session open and no send: what this process costs anyway.
      const rest = process.cpuUsage();
      const restStart = now();
      await new Promise((r) => setTimeout(r, WAIT_S * 1000));
      const restUsed = process.cpuUsage(rest);
      const idle = (restUsed.user + restUsed.system) / 1000 / (now() - restStart);
      const processes = processCount();
      const cpu = process.cpuUsage();
      const t = now();
      const r = await service.send(owner, sessionId, { input: `sleep ${WAIT_S}` });
      const wall = now() - t;
      const used = process.cpuUsage(cpu);
      return { share: (used.user + used.system) / 1000 / wall, idle, processes, waitReason: `${r.waitReason}/${r.waiting}`, looks };
    } finally {
      await service.close(owner, sessionId, 'bench done');
    }
  } finally {
    end();
  }
}

/** Prints the CPU of a waiting send with about 100 and about 3 000 processes on the machine. */
async function waiting(): Promise<void> {
  const base = processCount();
  const few = await waitingSend(Math.max(0, 100 - base));
  const many = await waitingSend(Math.max(0, 3000 - base));
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const row = (r: typeof few) =>
    `  with ${String(r.processes).padStart(5)} processes on the machine: ${pct(r.share)} during the send, ${pct(r.idle)} idle before it, the send's own ${pct(r.share - r.idle)}   (${r.waitReason}, ${r.looks} looks)`;
  console.log(`waiting send \`sleep ${WAIT_S}\`: CPU of the process holding the session (process.cpuUsage), share of one core`);
  console.log(row(few));
  console.log(row(many));
  console.log(
    `  ratio during the send (${many.processes} / ${few.processes} processes) ${(many.share / few.share).toFixed(2)}×; goal at most 1 % at either, flat`,
  );
}

/** Python program holding `tcp` listening sockets, `udp` bound ones and `pairs` connected TCP pairs, then sleeping; prints `ready`. */
const SOCKET_HOLDER = `
import socket, sys, time
tcp, udp, pairs = map(int, sys.argv[1:4])
held = []
for _ in range(tcp):
    s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1); held.append(s)
for _ in range(udp):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 0)); held.append(s)
if pairs:
    server = socket.socket(); server.bind(('127.0.0.1', 0)); server.listen(pairs); held.append(server)
    for _ in range(pairs):
        c = socket.create_connection(server.getsockname()); a, _ = server.accept(); held += [c, a]
print('ready', flush=True)
time.sleep(3600)
`;

/**
 * Starts python processes (each in a process group of its own) holding `tcp` listening, `udp`
 * bound and `pairs` connected TCP socket pairs between them, 500 sockets a process at most;
 * resolves once all hold theirs. The returned function ends them.
 */
async function socketHolders(tcp: number, udp: number, pairs: number): Promise<() => void> {
  const children: ReturnType<typeof spawn>[] = [];
  const end = () => {
    for (const child of children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const jobs: [number, number, number][] = [];
  for (let i = 0; i < tcp; i += 500) jobs.push([Math.min(500, tcp - i), 0, 0]);
  for (let i = 0; i < udp; i += 500) jobs.push([0, Math.min(500, udp - i), 0]);
  for (let i = 0; i < pairs; i += 250) jobs.push([0, 0, Math.min(250, pairs - i)]);
  try {
    await Promise.all(
      jobs.map(
        (args) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn('python3', ['-c', SOCKET_HOLDER, ...args.map(String)], {
              detached: true,
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            children.push(child);
            child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
            child.once('exit', () => reject(new Error('a socket holder exited early')));
          }),
      ),
    );
  } catch (error) {
    end();
    throw error;
  }
  return end;
}

/** Lines of the machine's socket tables (IPv4 and IPv6, TCP and UDP), headers left out. */
const socketCount = () =>
  ['tcp', 'tcp6', 'udp', 'udp6'].reduce(
    (n, t) =>
      n +
      fs
        .readFileSync(`/proc/net/${t}`, 'latin1')
        .split('\n')
        .filter((l) => /^\s*\d+:/.test(l)).length,
    0,
  );

/** Goal of what reading a session's sockets adds to a send (ms). */
const PORTS_GOAL_MS = 2;

/** Prints what reading the session's listening sockets adds to a send under load (see the module comment). */
async function ports(): Promise<void> {
  const service = new TerminalService(SILENT_LOG);
  const config = resolveTerminalConfig();
  service.registerBackend(new PtyBashBackend(pty, () => config, SILENT_LOG));
  const owner = service.createOwner('bench');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-home-'));
  const endSockets = await socketHolders(2000, 1000, 3500);
  const endProcesses = await extraProcesses(Math.max(0, 3000 - processCount()));
  try {
    const { sessionId } = await service.open(owner, { env: { HOME: home }, cwd: home });
    try {
      await service.send(owner, sessionId, { input: 'python3 -m http.server 0 --bind 127.0.0.1 >/dev/null 2>&1 &' });
      const listened = await service.wait(owner, sessionId, { untilListening: true, timeoutMs: 30_000 });
      if (listened.waitReason !== 'port_listening') throw new Error(`the session's server did not listen: ${listened.waitReason}`);
      const server = { pid: listened.listened!.pid, startTime: readStat(listened.listened!.pid)!.startTime };
      // The first look at a socket reads the tables: a reader that has seen none, each time.
      const firstLook = async () => {
        const t = now();
        const look = await new ListeningSocketReader().look([server]);
        if (look.sockets.length !== 1) throw new Error(`first look: ${JSON.stringify(look)}`);
        return now() - t;
      };
      const look = async () => {
        const t = now();
        const report = await service.processes(owner, sessionId, false);
        if (!report.available || report.listening.length !== 1) throw new Error(`look: ${JSON.stringify(report)}`);
        return now() - t;
      };
      const first: number[] = [];
      for (let i = 0; i < 20; i++) first.push(await firstLook());
      const known: number[] = [];
      for (let i = 0; i < SENDS; i++) known.push(await look());
      const sends: number[] = [];
      for (let i = 0; i < SENDS; i++) {
        const t = now();
        const r = await service.send(owner, sessionId, { input: 'true' });
        sends.push(now() - t);
        if (r.listening?.length !== 1) throw new Error('the send result does not name the server');
      }
      const bare = await session('bash');
      const line = (label: string, xs: number[]) =>
        `  ${label.padEnd(52)} ${fmt(quantile(xs, 0.5)).padStart(9)}  ${fmt(quantile(xs, 0.95)).padStart(9)}`;
      console.log(
        `ports: ${processCount()} processes, ${socketCount()} sockets on the machine (load average ${os.loadavg()[0]!.toFixed(1)}); the session's server listens on 127.0.0.1:${listened.listened!.port}`,
      );
      console.log(`                                                          median      p95`);
      console.log(line(`look at the session's sockets, known (${SENDS})`, known));
      console.log(line('first look at a socket: its tables read (20)', first));
      console.log(line(`send \`true\`, its result naming the server (${SENDS})`, sends));
      console.log(line(`send \`true\` in a session with no socket (${SENDS})`, bare));
      const added = quantile(known, 0.5);
      console.log(
        `  added to a send (median look, sockets known) ${fmt(added)}; goal at most ${PORTS_GOAL_MS} ms → ${added <= PORTS_GOAL_MS ? 'within' : 'OVER'} the goal; a socket's first look ${fmt(quantile(first, 0.5))}`,
      );
    } finally {
      await service.close(owner, sessionId, 'bench done');
    }
  } finally {
    endProcesses();
    endSockets();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Background processes the session of {@link listCost} starts. */
const SESSION_PROCESSES = 1000;
/** Lists and sends {@link listCost} times after the first list. */
const LIST_RUNS = 20;

/**
 * Prints what `dsh_terminal_list` (the service's `processes` with its scan of the machine for the
 * session's mark) and a send cost in a session that started SESSION_PROCESSES background
 * processes, with about 3 000 processes on the machine: wall time of the first list (every
 * process's stat, the environment of each started since the session), of the lists after it (only
 * what started since the previous one is read), and of a send of `true`, with the CPU time this
 * process used per call (process.cpuUsage: every thread, the thread pool's too); and the longest this
 * thread (the extension host's in VS Code) was held by its own work meanwhile: a gap of a 5 ms timer
 * less the thread's wait for a CPU in it (test/helpers/eventLoopLag.ts).
 */
async function listCost(): Promise<void> {
  const service = new TerminalService(SILENT_LOG);
  const config = resolveTerminalConfig();
  service.registerBackend(new PtyBashBackend(pty, () => config, SILENT_LOG));
  const owner = service.createOwner('bench');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-home-'));
  const endProcesses = await extraProcesses(Math.max(0, 3000 - SESSION_PROCESSES - processCount()));
  try {
    const { sessionId } = await service.open(owner, { env: { HOME: home }, cwd: home });
    try {
      await service.send(owner, sessionId, { input: `for i in $(seq ${SESSION_PROCESSES}); do sleep 600 & done` });
      const list = async () => {
        const report = await service.processes(owner, sessionId);
        if (!report.available || report.processes.length < 200) throw new Error(`list: ${JSON.stringify(report).slice(0, 200)}`);
      };
      const send = async () => {
        const r = await service.send(owner, sessionId, { input: 'true' });
        if (r.waitReason !== 'stdin_read') throw new Error(`send: ${r.waitReason}`);
      };
      /** Wall times of `runs` calls of `fn` one after the other, and the longest this thread was held by its own work meanwhile (ms; eventLoopLag.ts: a gap of a 5 ms timer less its wait for a CPU). */
      const timed = async (runs: number, fn: () => Promise<void>) => {
        const probe = startLagProbe(5);
        const times: number[] = [];
        const cpu: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t = now();
          const c = process.cpuUsage();
          await fn();
          const used = process.cpuUsage(c);
          cpu.push((used.user + used.system) / 1000);
          times.push(now() - t);
        }
        return { times, cpu, held: probe.stop().maxHeldMs };
      };
      const first = await timed(1, list);
      const again = await timed(LIST_RUNS, list);
      const sends = await timed(LIST_RUNS, send);
      const row = (label: string, r: { times: number[]; cpu: number[]; held: number }) =>
        `  ${label.padEnd(36)} ${fmt(quantile(r.times, 0.5)).padStart(10)} ${fmt(Math.max(...r.times)).padStart(10)} ${fmt(quantile(r.cpu, 0.5)).padStart(10)} ${fmt(r.held).padStart(10)}`;
      console.log(
        `list: ${processCount()} processes on the machine, ${SESSION_PROCESSES} of them the session's background jobs (load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
      console.log(
        `                                       wall: median        max   CPU: median   longest hold of this thread by its own work`,
      );
      console.log(row('first list (every process read)', first));
      console.log(row(`list again (${LIST_RUNS})`, again));
      console.log(row(`send \`true\` (${LIST_RUNS})`, sends));
      await service.send(owner, sessionId, { input: 'kill $(jobs -p); wait' });
    } finally {
      await service.close(owner, sessionId, 'bench done');
    }
  } finally {
    endProcesses();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.DSH_BENCH_PORTS_ONLY === '1') return ports();
  if (process.env.DSH_BENCH_LIST_ONLY === '1') return listCost();
  if (process.env.DSH_BENCH_LATENCY_ONLY !== '1') await waiting();
  if (process.env.DSH_BENCH_LATENCY_ONLY !== '1') await ports();
  if (process.env.DSH_BENCH_LATENCY_ONLY !== '1') await listCost();
  console.log(`bench:terminal — ${SENDS} sends each, node ${process.version}, ${process.platform}/${process.arch}`);
  console.log(`                                   median      p95`);
  const added: Record<ShellName, number> = { bash: 0, zsh: 0 };
  for (const shell of ['bash', 'zsh'] as const) {
    const s = await session(shell);
    const r = await raw(shell);
    const [sMed, sP95, rMed, rP95] = [quantile(s, 0.5), quantile(s, 0.95), quantile(r, 0.5), quantile(r, 0.95)];
    added[shell] = sMed - rMed;
    console.log(`${`pty-${shell} send \`true\` → stdin_read`.padEnd(34)} ${fmt(sMed).padStart(9)}  ${fmt(sP95).padStart(9)}`);
    console.log(`${`raw node-pty ${shell} echo round trip`.padEnd(34)} ${fmt(rMed).padStart(9)}  ${fmt(rP95).padStart(9)}`);
    console.log(
      `  added latency (median session − median raw) ${fmt(added[shell])}; goal at most ${ADDED_GOAL_MS} ms → ${added[shell] <= ADDED_GOAL_MS ? 'within' : 'OVER'} the goal (ratio ${(sMed / rMed).toFixed(1)}×)`,
    );
  }
  console.log("(none runs the user's startup files: the sessions' HOME is an empty folder, the raw shells run --norc / -f)");
  const over = added.zsh - added.bash;
  console.log(
    `zsh's added latency − bash's ${fmt(over)}; goal at most ${ZSH_OVER_BASH_GOAL_MS} ms → ${over <= ZSH_OVER_BASH_GOAL_MS ? 'within' : 'OVER'} the goal`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
