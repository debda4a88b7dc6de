/**
 * `npm run bench:output`: output throughput, memory and paging of the pty-bash backend (issue 5).
 * Prints figures, asserts nothing. For each command:
 * - session: one send through TerminalService (default bounds: 10 000 lines / 4 MiB retained,
 *   256 KiB viewport), MB/s = the command's stdout bytes / wall time of the send;
 * - raw: the same command on a bare node-pty (`bash -c`), reading every chunk, to its exit;
 * - peak RSS growth (MiB) of this process during each run, sampled every 20 ms, over the RSS
 *   just before the run (after a GC when node runs with --expose-gc).
 * Then the time to serve a 500-line page from the full scrollback, rendered (model text) and raw
 * (median and p95 of 200 reads at varying offsets).
 */
import { execFileSync } from 'node:child_process';
import { resolveTerminalConfig } from '../src/terminal/config';
import { PtyBashBackend } from '../src/terminal/ptyBash';
import { TerminalService } from '../src/terminal/service';

const pty = require('node-pty') as typeof import('node-pty');
const COMMANDS = ['seq 1 2000000', "head -c 200000000 /dev/zero | tr '\\0' x | fold -w 100"];

const now = () => Number(process.hrtime.bigint()) / 1e6;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const MiB = 1024 * 1024;

/** Runs `fn` while sampling RSS; returns its result, wall time (ms) and peak RSS growth (bytes). */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peak: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - base)), 20);
  const t = now();
  try {
    const value = await fn();
    return { value, ms: now() - t, peak: Math.max(peak, process.memoryUsage().rss - base) };
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

async function main(): Promise<void> {
  const log = { info: () => {}, warn: (m: string) => console.warn(m) };
  const service = new TerminalService(log);
  const config = resolveTerminalConfig();
  service.registerBackend(new PtyBashBackend(pty, () => config, log));
  const owner = service.createOwner('bench');
  const { sessionId } = await service.open(owner);
  console.log(`bench:output — node ${process.version}, ${process.platform}/${process.arch}; retained ${config.retainedLines} lines / ${config.retainedBytes / MiB} MiB, read cap ${config.maxReadBytes / 1024} KiB`);
  for (const command of COMMANDS) {
    const bytes = Number(execFileSync('bash', ['-c', `${command} | wc -c`], { encoding: 'utf8' }).trim());
    const s = await measured(() => service.send(owner, sessionId, { input: command, timeoutMs: 600_000 }));
    if (s.value.waiting !== 'shell-prompt') throw new Error(`${command}: ${s.value.waitReason}`);
    const r = await measured(() => rawRun(command));
    const sRate = bytes / MiB / (s.ms / 1000);
    const rRate = bytes / MiB / (r.ms / 1000);
    console.log(`\n$ ${command}   (${(bytes / MiB).toFixed(1)} MiB of stdout)`);
    console.log(`  session ${sRate.toFixed(1)} MiB/s (${(s.ms / 1000).toFixed(2)} s)   raw node-pty ${rRate.toFixed(1)} MiB/s (${(r.ms / 1000).toFixed(2)} s)   ratio ${(sRate / rRate).toFixed(2)}`);
    console.log(`  peak RSS growth: session ${(s.peak / MiB).toFixed(1)} MiB, raw ${(r.peak / MiB).toFixed(1)} MiB; viewport ${Buffer.byteLength(s.value.output)} bytes, truncated ${s.value.truncated}, dropped ${(s.value.droppedBytes / MiB).toFixed(1)} MiB`);
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
    console.log(`\n500-line page from a full scrollback (${total} lines, ${raw ? 'raw' : 'rendered model text'}): median ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms`);
  }
  await service.close(owner, sessionId, 'bench done');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
