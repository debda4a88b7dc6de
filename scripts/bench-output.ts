/**
 * `npm run bench:output`: output throughput, memory and paging of the pty-bash backend (issue 5).
 * Prints figures, asserts nothing. For each command:
 * - session: one send through TerminalService (default bounds: 10 000 lines / 4 MiB retained,
 *   256 KiB viewport), MB/s = the command's stdout bytes / wall time of the send;
 * - raw: the same command on a bare node-pty (`bash -c`), reading every chunk, to its exit;
 * - the CPU time of this process (all its threads) during each;
 * - peak RSS growth (MiB) of this process during each run, sampled every 20 ms, over the RSS
 *   just before the run (after a GC when node runs with --expose-gc).
 * Then the time to serve a 500-line page from the full scrollback, rendered (model text) and raw
 * (median and p95 of 200 reads at varying offsets).
 * Then pathological output (escapes that make a terminal emulator loop over a count or redraw the
 * screen): the wall time of one render of each for the model (TextRenderer, 120×30, as a send's
 * viewport and as a `screen` read), the longest the event loop was held by one send through a real
 * session, and whether the render was complete or stopped at its budget. `--render` runs only these.
 * Then a background send (startBackground, its output read every 200 ms as dsh_terminal_output
 * does): MiB/s, this process's CPU time and the longest event-loop stall. `--background` runs only it.
 * Secret redaction (dsh.terminal.redactSecrets): every command runs in a session with redaction on
 * and in one with it off, beside raw node-pty (medians of REDACTION_RUNS runs, after a warm-up send
 * in each session), with the time of redacting its viewport (CPU on this thread; wall through a
 * redaction worker, new and then warm); then the time to read a page of secret-dense output with
 * it on and off. `--redaction` runs only these, with smaller commands.
 */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as pty from 'node-pty';
import { resolveTerminalConfig } from '../src/terminal/config';
import { PtyBashBackend } from '../src/terminal/bash/ptyBash';
import { TerminalService } from '../src/terminal/service';
import { Owner } from '../src/terminal/owner';
import { RENDER_BUDGET_MS, RENDER_WALL_MS, TextRenderer } from '../src/terminal/output/screenText';
import { median, now, quantile } from '../test/bench/timing';
import { longestStall } from '../test/helpers/eventLoopLag';
import { SILENT_LOG } from '../src/common/log';
import { redactionWorkerEntry, screenTextWorkerEntry } from '../test/helpers/workerEntry';
import { SECRETS } from '../test/helpers/secretCorpus';
import { redactSecrets } from '../src/terminal/secrets/redact';
import { SecretRedactor } from '../src/terminal/secrets/secretRedactor';

// One line of 50 MB (a minified bundle, a log without line ends), a progress bar redrawn with `\r`
// 300 000 times (one write each, never a line end), many short lines, long lines. The last two
// fill the scrollback with lines for the page reads after them.
const COMMANDS = [
  "head -c 50000000 /dev/zero | tr '\\0' x; echo",
  'awk \'BEGIN { for (i = 0; i < 300000; i++) { printf "\\r[##########..........] %3d%% 12.3 MB/s", i % 100; fflush() } print "" }\'',
  'seq 1 2000000',
  "head -c 200000000 /dev/zero | tr '\\0' x | fold -w 100",
];

const MiB = 1024 * 1024;

/** Runs `fn`, with its wall time (ms), this process's CPU time meanwhile (ms, all threads) and the peak RSS growth (bytes). */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number; peak: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - base)), 20);
  const t = now();
  const cpu = process.cpuUsage();
  try {
    const value = await fn();
    const used = process.cpuUsage(cpu);
    return { value, ms: now() - t, cpuMs: (used.user + used.system) / 1000, peak: Math.max(peak, process.memoryUsage().rss - base) };
  } finally {
    clearInterval(timer);
  }
}

function rawRun(command: string): Promise<number> {
  return new Promise((resolve) => {
    const term = pty.spawn('bash', ['--norc', '--noprofile', '-c', command], { name: 'xterm-256color', cols: 120, rows: 30 });
    let chars = 0;
    term.onData((d) => (chars += d.length));
    term.onExit(() => resolve(chars));
  });
}

const E = '\x1b';
const lines40 = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
/** Pathological outputs, each about what one send's viewport (256 KiB) holds. */
const PATHOLOGICAL: [string, string][] = [
  ["REP count 300 000 000 (printf 'x\\e[300000000b')", `x${E}[300000000b`],
  ['REP count 300 000 000, 1 000 times', `x${E}[300000000b`.repeat(1000)],
  ['ICH count 10^9, 20 000 times', `abc${`${E}[1000000000@`.repeat(20_000)}`],
  ['IL count 10^6, 20 000 times', `${lines40}${E}[H${`${E}[1000000L`.repeat(20_000)}`],
  ['DL, SU, SD count 10^6, 7 000 times each', `${lines40}${E}[H${`${E}[1000000M${E}[1000000S${E}[1000000T`.repeat(7_000)}`],
  [
    'cursor jump + ICH + IL count 10^6, 12 000 times',
    Array.from({ length: 12_000 }, (_, i) => `${E}[${(i % 30) + 1};${(i % 120) + 1}H${E}[1000@${E}[1000000L`).join(''),
  ],
  ['CHT/CBT count 2*10^9, 10 000 times (tab stops cleared)', `${E}[3g${`${E}[2000000000I${E}[2000000000Z`.repeat(10_000)}`],
  ['ECH/DCH count 2*10^9, 10 000 times', `ab${`${E}[2000000000X${E}[2000000000P`.repeat(10_000)}`],
  ['DECALN (ESC # 8), 80 000 times', `${E}#8`.repeat(80_000)],
  ['REP of e + 1 000 combining marks, count 10^6, 100 times', `e${'\u0301'.repeat(1000)}${E}[1000000b`.repeat(100)],
  ['OSC title of 250 000 characters', `${E}]0;${'t'.repeat(250_000)}\x07after`],
  ['DCS string of 250 000 characters', `${E}P$q${'d'.repeat(250_000)}${E}\\after`],
  ['resize request CSI 8;10000;10000 t', `${E}[8;10000;10000tresize`],
  ['HT with the tab stops cleared, 250 000 times', `${E}[3g${'\t'.repeat(250_000)}`],
  ['insert mode (IRM) printing 250 000 characters', `${E}[4h${'y'.repeat(250_000)}`],
  ['scroll region + 250 000 line feeds', `${E}[2;29r${E}[29H${'\n'.repeat(250_000)}`],
  ['reference: 40 000 plain lines (seq)', Array.from({ length: 40_000 }, (_, i) => String(i + 1)).join('\n')],
];

/** MiB/s, CPU time and the longest event-loop stall of one background send whose output is read every 200 ms. */
async function background(service: TerminalService, owner: Owner, sessionId: string): Promise<void> {
  const command = 'seq 1 2000000';
  const bytes = Number(execFileSync('bash', ['-c', `${command} | wc -c`], { encoding: 'utf8' }).trim());
  let read = 0;
  let dropped = 0;
  const { value: s, stallMs } = await longestStall(() =>
    measured(async () => {
      const { jobId } = service.startBackground(owner, sessionId, { input: command, timeoutMs: 600_000 });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const out = await service.output(owner, sessionId, jobId);
        read += out.text.length;
        dropped += out.droppedBytes;
        if (out.done) return;
      }
    }),
  );
  console.log(`
background send, output read every 200 ms: $ ${command}   (${(bytes / MiB).toFixed(1)} MiB of stdout)`);
  console.log(
    `  ${(bytes / MiB / (s.ms / 1000)).toFixed(1)} MiB/s (${(s.ms / 1000).toFixed(2)} s), CPU time of this process ${s.cpuMs.toFixed(0)} ms, longest event-loop stall ${stallMs.toFixed(0)} ms; read ${(read / MiB).toFixed(1)} M chars, dropped ${(dropped / MiB).toFixed(1)} MiB`,
  );
}

/** Render time (ms) of each pathological output, and one real send's longest event-loop stall. */
async function pathological(service: TerminalService, owner: Owner, sessionId: string): Promise<void> {
  console.log(`\nPathological output, one render for the model (120×30; budget ${RENDER_BUDGET_MS} ms CPU / ${RENDER_WALL_MS} ms wall):`);
  const renderer = new TextRenderer(120, 30);
  renderer.render('warm up\n'.repeat(1000));
  for (const [name, raw] of PATHOLOGICAL) {
    let t = now();
    const rendered = renderer.render(raw, { keepCursorBlanks: true });
    const renderMs = now() - t;
    t = now();
    const screen = renderer.screen(raw);
    const screenMs = now() - t;
    const how = rendered.limited || screen.limited ? 'stopped at the budget / shortened (renderLimited)' : 'complete';
    console.log(
      `  ${name.padEnd(58)} ${String(raw.length).padStart(7)} chars   render ${renderMs.toFixed(1).padStart(6)} ms   screen ${screenMs.toFixed(1).padStart(6)} ms   ${how}`,
    );
  }
  for (const command of ["printf 'x\\e[300000000b\\n'", `python3 -c 'import sys; sys.stdout.write("\\x1b[1000000L" * 20000 + "\\n")'`]) {
    const { value: r, stallMs } = await longestStall(() => service.send(owner, sessionId, { input: command, timeoutMs: 600_000 }));
    console.log(
      `  through a session: $ ${command}\n    send ${r.durationMs} ms, longest event-loop stall ${stallMs.toFixed(0)} ms, viewport ${r.output.length} chars${r.renderLimited ? ', renderLimited' : ''}`,
    );
  }
}

/** A service whose one pty-bash backend redacts secrets or not, with the workers the extension ships. */
function benchService(redactSecrets: boolean): {
  service: TerminalService;
  owner: Owner;
  config: ReturnType<typeof resolveTerminalConfig>;
} {
  const log = { ...SILENT_LOG, warn: (m: string) => console.warn(m) };
  const service = new TerminalService(log);
  const config = resolveTerminalConfig({ redactSecrets });
  service.registerBackend(
    new PtyBashBackend(pty, () => config, log, {
      renderWorkerEntry: screenTextWorkerEntry(),
      redactionWorkerEntry: redactionWorkerEntry(),
    }),
  );
  return { service, owner: service.createOwner('bench'), config };
}

/** Runs of each command in each of the three ways (redaction on, off, raw node-pty) in `--redaction`: medians are printed. */
const REDACTION_RUNS = 6;

/**
 * Throughput with redaction on beside off and raw node-pty (each command run REDACTION_RUNS times
 * in turn, each run starting with the next of the three, after one warm-up send per session, so neither session pays for the first send's
 * compilation), the CPU time of redacting the send's viewport on this thread (what the worker
 * does at the end of a send), and reads of secret-dense pages.
 */
async function redaction(commands: readonly string[]): Promise<void> {
  const on = benchService(true);
  const off = benchService(false);
  const onId = (await on.service.open(on.owner)).sessionId;
  const offId = (await off.service.open(off.owner)).sessionId;
  console.log(
    `secret redaction — node ${process.version}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; medians of ${REDACTION_RUNS} runs each`,
  );
  const warmUp = "head -c 300000 /dev/zero | tr '\\0' x; echo; seq 1 20000";
  for (const [s, id] of [
    [on, onId],
    [off, offId],
  ] as const)
    await s.service.send(s.owner, id, { input: warmUp, timeoutMs: 600_000 });
  await rawRun(warmUp);
  for (const command of commands) {
    const bytes = Number(execFileSync('bash', ['-c', `{ ${command}; } | wc -c`], { encoding: 'utf8' }).trim());
    const times = { on: [] as number[], off: [] as number[], raw: [] as number[] };
    let viewport = '';
    const ways = [
      async () => times.on.push((await measured(() => on.service.send(on.owner, onId, { input: command, timeoutMs: 600_000 }))).ms),
      async () => {
        const b = await measured(() => off.service.send(off.owner, offId, { input: command, timeoutMs: 600_000 }));
        times.off.push(b.ms);
        viewport = b.value.output;
      },
      async () => times.raw.push((await measured(() => rawRun(command))).ms),
    ];
    // Each run starts with another of the three ways, so none always runs first (or after another).
    for (let i = 0; i < REDACTION_RUNS; i++) for (let k = 0; k < ways.length; k++) await ways[(i + k) % ways.length]!();
    const redactCpu: number[] = [];
    for (let i = 0; i < 5; i++) {
      const cpu = process.cpuUsage();
      redactSecrets(viewport, { columns: 120 });
      const used = process.cpuUsage(cpu);
      redactCpu.push((used.user + used.system) / 1000);
    }
    const rate = (ms: number) => bytes / MiB / (ms / 1000);
    const [a, b, r] = [median(times.on), median(times.off), median(times.raw)];
    console.log(`\n$ ${command}   (${(bytes / MiB).toFixed(1)} MiB of stdout)`);
    console.log(
      `  redaction on ${rate(a).toFixed(1)} MiB/s (${(a / 1000).toFixed(2)} s)   off ${rate(b).toFixed(1)} MiB/s (${(b / 1000).toFixed(2)} s)   raw node-pty ${rate(r).toFixed(1)} MiB/s (${(r / 1000).toFixed(2)} s)   on/raw ${(rate(a) / rate(r)).toFixed(2)}   off/raw ${(rate(b) / rate(r)).toFixed(2)}   on/off ${(rate(a) / rate(b)).toFixed(2)}`,
    );
    // What a send waits for at its end: the viewport through a redaction worker, the first time
    // in a new worker (loading the rules; a session's spawn does that ahead), then warm.
    const redactor = new SecretRedactor(redactionWorkerEntry(), () => ({ enabled: true, patterns: [] }));
    const walls: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = now();
      await redactor.redact(viewport, 120);
      walls.push(now() - t);
    }
    console.log(
      `  redacting the viewport (${viewport.length} UTF-16 code units): on this thread median ${median(redactCpu).toFixed(1)} ms CPU of 5; through a new worker ${walls[0]!.toFixed(0)} ms wall, then median ${median(walls.slice(1)).toFixed(1)} ms of 5`,
    );
  }
  // Secret-dense output: the corpus printed 40 times (about 2 000 lines with 2 000 secrets).
  const dense = `for i in $(seq 40); do cat <<'EOF'\n${SECRETS.map((x) => x.line).join('\n')}\nEOF\ndone`;
  for (const [name, s, id] of [
    ['on', on, onId],
    ['off', off, offId],
  ] as const) {
    const send = await measured(() => s.service.send(s.owner, id, { input: dense, timeoutMs: 600_000 }));
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = now();
      await s.service.readAsync(s.owner, id, { offset: (i * 37) % 1500, count: 500 });
      times.push(now() - t);
    }
    console.log(
      `\nsecret-dense output, redaction ${name}: send ${send.ms.toFixed(0)} ms (viewport ${Buffer.byteLength(send.value.output)} bytes); 500-line page (readAsync): median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms`,
    );
  }
  await on.service.closeAll('bench done');
  await off.service.closeAll('bench done');
}

async function main(): Promise<void> {
  if (process.argv.includes('--redaction')) {
    await redaction([
      "head -c 20000000 /dev/zero | tr '\\0' x; echo",
      'seq 1 1000000',
      "head -c 50000000 /dev/zero | tr '\\0' x | fold -w 100",
    ]);
    return;
  }
  const { service, owner, config } = benchService(true);
  const { sessionId } = await service.open(owner);
  if (process.argv.includes('--background')) {
    await background(service, owner, sessionId);
    await service.close(owner, sessionId, 'bench done');
    return;
  }
  if (process.argv.includes('--render')) {
    await pathological(service, owner, sessionId);
    await service.close(owner, sessionId, 'bench done');
    return;
  }
  console.log(
    `bench:output — node ${process.version}, ${process.platform}/${process.arch}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; retained ${config.retainedLines} lines / ${config.retainedBytes / MiB} MiB, read cap ${config.maxReadBytes / 1024} KiB`,
  );
  for (const command of COMMANDS) {
    const bytes = Number(execFileSync('bash', ['-c', `{ ${command}; } | wc -c`], { encoding: 'utf8' }).trim());
    const s = await measured(() => service.send(owner, sessionId, { input: command, timeoutMs: 600_000 }));
    if (s.value.waiting !== 'shell-prompt') throw new Error(`${command}: ${s.value.waitReason}`);
    const r = await measured(() => rawRun(command));
    const sRate = bytes / MiB / (s.ms / 1000);
    const rRate = bytes / MiB / (r.ms / 1000);
    console.log(`\n$ ${command}   (${(bytes / MiB).toFixed(1)} MiB of stdout)`);
    console.log(
      `  session ${sRate.toFixed(1)} MiB/s (${(s.ms / 1000).toFixed(2)} s)   raw node-pty ${rRate.toFixed(1)} MiB/s (${(r.ms / 1000).toFixed(2)} s)   ratio ${(sRate / rRate).toFixed(2)}`,
    );
    console.log(`  CPU time of this process: session ${s.cpuMs.toFixed(0)} ms, raw ${r.cpuMs.toFixed(0)} ms`);
    console.log(
      `  peak RSS growth: session ${(s.peak / MiB).toFixed(1)} MiB, raw ${(r.peak / MiB).toFixed(1)} MiB; viewport ${Buffer.byteLength(s.value.output)} bytes, truncated ${s.value.truncated}, dropped ${(s.value.droppedBytes / MiB).toFixed(1)} MiB`,
    );
  }
  for (const raw of [false, true]) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = now();
      const page = service.read(owner, sessionId, { offset: (i * 47) % 9000, count: 500, raw });
      times.push(now() - t);
      if (page.lineEnd - page.lineBegin !== 500) throw new Error(`page of ${page.lineEnd - page.lineBegin} lines`);
    }
    const total = service.read(owner, sessionId, { count: 1 }).totalLines;
    console.log(
      `\n500-line page from a full scrollback (${total} lines, ${raw ? 'raw' : 'rendered model text'}): median ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms`,
    );
  }
  await background(service, owner, sessionId);
  await pathological(service, owner, sessionId);
  await service.close(owner, sessionId, 'bench done');
  console.log('');
  await redaction(COMMANDS);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
