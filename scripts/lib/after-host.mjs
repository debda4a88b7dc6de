// @ts-check
// Checks that can only be made once the extension host has stopped: a test in the host names a
// process that must then be gone (and, optionally, lines a file must hold by then) through
// test/helpers/host/report.ts `checkAfterHost`, which appends one JSON line per check to
// $DSH_TEST_AFTER_HOST; the launcher runs them after the host run and reports each as a test.
import * as fs from 'node:fs';
import { sleep } from './cleanup.mjs';

/**
 * One check (test/helpers/host/report.ts `AfterHostCheck`).
 * @typedef {{ title: string, pid: number, file?: string, lines?: string[] }} AfterHostCheck
 */

/** How long (ms) a named process may take to go after the host run ended. */
const GONE_WITHIN_MS = 15_000;

/**
 * True while `pid` is a process that has not exited: a zombie (state `Z` in /proc/<pid>/stat,
 * exited but not yet reaped) counts as gone.
 * @param {number} pid
 */
function running(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(pid, 0) succeeded
  }
}

/**
 * Why `check` failed, or undefined when it holds: its process must be gone within
 * GONE_WITHIN_MS, and then its file must hold each of its `lines` (whole lines).
 * @param {AfterHostCheck} check
 * @returns {Promise<string | undefined>}
 */
async function failure(check) {
  const deadline = Date.now() + GONE_WITHIN_MS;
  while (running(check.pid) && Date.now() < deadline) await sleep(100);
  if (running(check.pid)) return `process ${check.pid} still runs ${GONE_WITHIN_MS / 1000} s after the host run ended`;
  if (!check.file) return undefined;
  const text = fs.existsSync(check.file) ? fs.readFileSync(check.file, 'utf8') : '';
  const have = new Set(text.split('\n'));
  const missing = (check.lines ?? []).filter((line) => !have.has(line));
  return missing.length === 0 ? undefined : `${check.file} lacks the line(s) ${JSON.stringify(missing)}; it holds ${JSON.stringify(text)}`;
}

/**
 * Runs the checks the host run left in `file` (none when it does not exist), prints one line per
 * check like the in-host reporter, and returns their counts and failures.
 * @param {string} file  the $DSH_TEST_AFTER_HOST of the run
 * @returns {Promise<{ passed: number, failed: number, failures: { title: string, error: string }[] }>}
 */
export async function runAfterHostChecks(file) {
  const tally = { passed: 0, failed: 0, failures: /** @type {{ title: string, error: string }[]} */ ([]) };
  if (!fs.existsSync(file)) return tally;
  /** @type {AfterHostCheck[]} */
  const checks = JSON.parse(`[${fs.readFileSync(file, 'utf8').trim().split('\n').join(',')}]`);
  console.log('after the extension host stopped');
  for (const check of checks) {
    const why = await failure(check);
    if (why === undefined) {
      tally.passed++;
      console.log(`  ✔ ${check.title}`);
    } else {
      tally.failed++;
      tally.failures.push({ title: `after the extension host stopped ${check.title}`, error: why });
      console.log(`  ✘ ${check.title}\n      ${why}`);
    }
  }
  return tally;
}
