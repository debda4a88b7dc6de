// @ts-check
// `npm run check:first-calls`: the first navigation calls of a freshly opened window, repeated. In
// every tested VS Code host (1.100 and 1.139; `-- --vscode 1.100` or DSH_VSCODE_VERSIONS picks)
// it opens DSH_FIRST_CALL_WINDOWS (default 10) fresh windows on test/fixtures/fresh, each in a new
// code-server profile, and runs the first-call suite (test/integration/first-calls.fresh.test.ts)
// there: findReferences across two files, dsh_diagnostics of a file with a type error, dsh_symbols
// by name. The call that comes first rotates from window to window, so each one is the very first
// call of the window in a third of them. Prints, per version and call, how many windows answered
// right, and the median and slowest time of the call (all of them, and when it was the window's
// first call). Not part of `npm test` (about a minute per window). Exits non-zero unless every
// call was right in every window.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupScope, guard, shutdown } from './lib/cleanup.mjs';
import { describeHost, requestedVersions, resolveHosts } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import { FRESH_WORKSPACE, INTEGRATION_TESTS } from './lib/paths.mjs';
import { runInHost } from './lib/run-in-host.mjs';

const CALLS = ['loose', 'references', 'diagnostics', 'symbols'];
const windows = Number(process.env.DSH_FIRST_CALL_WINDOWS ?? 10);
if (!Number.isInteger(windows) || windows < 1)
  throw new Error(`DSH_FIRST_CALL_WINDOWS must be a positive integer, got ${process.env.DSH_FIRST_CALL_WINDOWS}`);
// Three calls of up to 90 s each (src/lsp/callLimit.ts) after the host starts, on a possibly loaded machine.
const windowTimeoutMs = 600_000;
/** @typedef {{ name: string, ok: boolean, ms: number, first: boolean }} CallRecord */

guard(undefined, (why) => `check:first-calls: ${why}`);

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (/** @type {number} */ i) => s[i] ?? NaN;
  return s.length === 0 ? NaN : s.length % 2 ? at((s.length - 1) / 2) : (at(s.length / 2 - 1) + at(s.length / 2)) / 2;
};
/** Seconds of `ms`, or '-' when there is no figure (NaN, or the max of no calls). */
const secs = (/** @type {number} */ ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '-');

try {
  const hosts = resolveHosts(requestedVersions(process.argv.slice(2)));
  const vsix = packageVsix();
  let allRight = true;
  /** @type {string[]} */
  const summary = [];
  for (const host of hosts) {
    console.log(`\n=== ${describeHost(host)}: ${windows} fresh windows on ${path.basename(FRESH_WORKSPACE)} ===`);
    /** @type {CallRecord[]} */
    const records = [];
    for (let w = 0; w < windows; w++) {
      const order = [...CALLS.slice(w % CALLS.length), ...CALLS.slice(0, w % CALLS.length)];
      const timings = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-first-calls-')), 'timings.jsonl');
      const scope = cleanupScope();
      const outcome = { failed: true };
      try {
        const run = runInHost({
          host,
          testsModule: INTEGRATION_TESTS,
          folder: FRESH_WORKSPACE,
          trusted: true,
          vsix,
          scope,
          outcome,
          counted: { passed: 0, failed: 0 },
          env: { DSH_TEST_SUITE: 'fresh', DSH_FRESH_ORDER: order.join(','), DSH_FRESH_TIMINGS: timings },
        });
        /** @type {NodeJS.Timeout | undefined} */
        let timer;
        const { results } = await Promise.race([
          run,
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('window timed out')), windowTimeoutMs))),
        ]).finally(() => clearTimeout(timer));
        outcome.failed = !results || results.failed > 0;
      } catch (err) {
        console.log(`window ${w + 1}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await scope.close();
      const text = fs.existsSync(timings) ? fs.readFileSync(timings, 'utf8') : '';
      const got = /** @type {CallRecord[]} */ (JSON.parse(`[${text.split('\n').filter(Boolean).join(',')}]`));
      fs.rmSync(path.dirname(timings), { recursive: true, force: true });
      // A call with no record did not run (the host or the window failed first): counted as not right, shown apart.
      const mine = CALLS.map((name) => got.find((r) => r.name === name) ?? { name, ok: false, ms: NaN, first: name === order[0] });
      records.push(...mine);
      console.log(
        `window ${w + 1} (first: ${order[0]}): ${mine.map((r) => `${r.name} ${Number.isNaN(r.ms) ? 'DID NOT RUN' : r.ok ? 'right' : 'WRONG'} ${secs(r.ms)}`).join(', ')}`,
      );
    }
    for (const name of CALLS) {
      const mine = records.filter((r) => r.name === name);
      const right = mine.filter((r) => r.ok).length;
      const notRun = mine.filter((r) => Number.isNaN(r.ms)).length;
      if (right !== mine.length) allRight = false;
      const times = mine.map((r) => r.ms).filter((x) => !Number.isNaN(x));
      const firstTimes = mine
        .filter((r) => r.first)
        .map((r) => r.ms)
        .filter((x) => !Number.isNaN(x));
      summary.push(
        `VS Code ${host.vscode} ${name.padEnd(11)} ${right}/${mine.length} right (${notRun} did not run); time median ${secs(median(times))}, max ${secs(Math.max(...times))}; ` +
          `as the window's first call: median ${secs(median(firstTimes))}, max ${secs(Math.max(...firstTimes))} (${firstTimes.length} windows)`,
      );
    }
  }
  console.log(
    `\nload average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  summary.forEach((l) => console.log(l));
  await shutdown(
    allRight ? 0 : 1,
    allRight ? 'check:first-calls: every first call was right' : 'check:first-calls: some first calls were wrong',
  );
} catch (err) {
  await shutdown(1, `check:first-calls: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
