/**
 * `npm run bench:history`: the command record's search and memory. Prints figures, asserts nothing.
 * - search: a full default scrollback (10 000 lines, 4 MiB, log-like text with some colour
 *   escapes) searched for a regular expression and a literal that match a few lines near the
 *   oldest end (so every line is searched), as dsh_terminal_read `search` does it (page taken on
 *   this thread, matched in the warm worker thread), next to `grep -n` (-E for the regular
 *   expression, -F for the literal) over the same text in a file, spawn included; median of
 *   $DSH_BENCH_RUNS runs each (default 30) after warm-up, with the ratio (goal ≤ 2×). The first,
 *   cold search (the worker starting) is printed too.
 * - memory: the heap held by a record of 1 000 commands fed through the marker events as a
 *   session feeds them (typical command lines of 20–200 characters, and the worst case of 1 000),
 *   measured after a GC (run with --expose-gc).
 * The time the calling thread spends (copying the lines out for the worker) is printed too. The
 * machine's load average is printed beside the figures.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CommandHistory } from '../src/terminal/history/commandHistory';
import { DEFAULT_TERMINAL_CONFIG } from '../src/terminal/config';
import { Scrollback } from '../src/terminal/output/scrollback';
import { MAX_SEARCH_MS, searchScrollback } from '../src/terminal/output/scrollbackSearch';
import { SecretRedactor } from '../src/terminal/secrets/secretRedactor';
import { MatchPool } from '../src/terminal/output/matchPool';
import { RUNS, median, now } from '../test/bench/timing';

const LINES = DEFAULT_TERMINAL_CONFIG.retainedLines;
const BYTES = DEFAULT_TERMINAL_CONFIG.retainedBytes;

/** 10 000 log-like lines filling 4 MiB; every 7th line coloured; lines 40 and 41 hold the needles. */
function scrollbackText(): string {
  const width = Math.floor(BYTES / LINES) - 1;
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    let line = `2026-12-01T20:${String(i % 60).padStart(2, '0')}:00.000Z INFO worker-${i % 16} request ${i} served in ${(i * 7) % 1000} ms path=/api/v1/items/${i}`;
    if (i === 40) line = `2026-12-01T20:00:00.000Z ERROR worker-3 request ${i} failed: connection timeout after 30000 ms`;
    if (i === 41) line = `2026-12-01T20:00:01.000Z WARN worker-3 retrying request ${i} (needle-literal-xyz)`;
    if (i % 7 === 0) line = `\x1b[32m${line}\x1b[0m`;
    while (Buffer.byteLength(line) < width) line += ' lorem ipsum dolor sit amet';
    lines.push(line.slice(0, width));
  }
  return lines.join('\n') + '\n';
}

function grep(args: string[], file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = now();
    execFile('grep', [...args, file], { maxBuffer: 64 * 1024 * 1024 }, (error) => {
      if (error && error.code !== 1) reject(new Error(`grep failed: ${error.message}`));
      else resolve(now() - t);
    });
  });
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc (npm run bench:history does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap held by a record of `count` commands whose command lines are made by `line(i)`. */
function recordMemory(count: number, line: (i: number) => string): { bytes: number; recorded: number } {
  const scrollback = new Scrollback({ maxLines: 10, maxBytes: 4096 });
  const before = heapUsed();
  const history = new CommandHistory({ scrollback, cwd: () => '/home/user/project', size: count });
  for (let i = 0; i < count; i++) {
    history.marker({ kind: 'prompt', status: 0, seq: i + 1 });
    history.marker({ kind: 'prompt-text' });
    history.wrote(`${line(i)}\n`, 'agent', line(i));
    history.marker({ kind: 'start', seq: i + 1 });
    scrollback.append(`output of command ${i}\r\n`);
  }
  history.marker({ kind: 'prompt', status: 0, seq: count + 1 });
  const bytes = heapUsed() - before;
  const recorded = history.page({ count: 1 }).recorded;
  return { bytes, recorded };
}

async function main(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} CPUs; ${RUNS} runs each`,
  );
  const text = scrollbackText();
  const scrollback = new Scrollback({ maxLines: LINES, maxBytes: BYTES, maxLineBytes: 16 * 1024 });
  scrollback.append(text);
  const history = new CommandHistory({ scrollback, cwd: () => undefined, size: 1000 });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-history-')), 'scrollback.txt');
  fs.writeFileSync(file, text);
  console.log(
    `scrollback: ${scrollback.totalLines} lines, ${(scrollback.totalBytes / 1024 / 1024).toFixed(2)} MiB; the same text in ${file}`,
  );

  const cases = [
    {
      name: 'regex  "ERROR .* timeout after [0-9]+ ms"',
      request: { pattern: 'ERROR .* timeout after [0-9]+ ms', regex: true },
      grep: ['-n', '-E', 'ERROR .* timeout after [0-9]+ ms'],
    },
    { name: 'literal "needle-literal-xyz"', request: { pattern: 'needle-literal-xyz' }, grep: ['-n', '-F', 'needle-literal-xyz'] },
    {
      name: 'literal, any case "NEEDLE-LITERAL"',
      request: { pattern: 'NEEDLE-LITERAL', ignoreCase: true },
      grep: ['-n', '-i', '-F', 'NEEDLE-LITERAL'],
    },
  ];
  // Searches read the scrollback redacted, as a session's do (here on this thread: no worker bundle).
  const redactor = new SecretRedactor(undefined, () => ({ enabled: true, patterns: [] }));
  const pool = new MatchPool();
  const search = async (request: { pattern: string; regex?: boolean; ignoreCase?: boolean }) => {
    const t = now();
    const r = await searchScrollback(
      scrollback,
      history,
      { ...request, timeoutMs: MAX_SEARCH_MS },
      (texts) => redactor.redactAll(texts),
      pool,
    );
    if (r.matches.length !== 1 || r.searchedLines !== LINES)
      throw new Error(
        `unexpected result: ${r.matches.length} matches, ${r.searchedLines} lines searched${r.timedOut ? ' (timed out)' : ''}`,
      );
    return now() - t;
  };
  const [first] = cases;
  if (first) console.log(`cold search (worker starting): ${(await search(first.request)).toFixed(1)} ms`);
  for (const c of cases) {
    for (let i = 0; i < 3; i++) {
      await search(c.request);
      await grep(c.grep, file);
    }
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i % 2) {
        ours.push(await search(c.request));
        theirs.push(await grep(c.grep, file));
      } else {
        theirs.push(await grep(c.grep, file));
        ours.push(await search(c.request));
      }
    }
    const a = median(ours);
    const b = median(theirs);
    console.log(`${c.name}: search ${a.toFixed(1)} ms, grep ${b.toFixed(1)} ms (median) → ratio ${(a / b).toFixed(2)}× (goal ≤ 2×)`);
  }
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const copies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = now();
    const lease = pool.pageBuffer();
    scrollback.utf8Lines(0, LINES, lease.get);
    lease.release();
    copies.push(now() - t);
  }
  console.log(`of which on the calling thread (the lines copied out for the worker): ${median(copies).toFixed(1)} ms (median)`);

  for (const [label, line] of [
    ['typical command lines (20–200 characters)', (i: number) => `npm test -- --grep "case ${i}" ${'x'.repeat(i % 180)}`],
    ['command lines of 1 000 characters (the cap)', (i: number) => `echo ${i} ${'y'.repeat(1000)}`],
  ] as const) {
    const { bytes, recorded } = recordMemory(1000, line);
    console.log(
      `memory of ${recorded} recorded commands, ${label}: ${(bytes / 1024).toFixed(0)} KiB (${(bytes / recorded).toFixed(0)} bytes each)`,
    );
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
