// How code running inside the extension host reports to the launcher on the other side: a line
// stream (JSON lines appended to $DSH_TEST_LOG, which the launcher tails and prints) and a final
// results file ($DSH_TEST_RESULTS). Both paths come from the environment code-server (or VS Code)
// was started with; the extension host inherits it. Without them, lines go to the console only.
import * as fs from 'node:fs';
import { errorMessage } from '../../../src/common/errorMessage';

/** Final outcome of an in-host run, as read by the launcher (scripts/lib/run-in-host.mjs). */
export interface Results {
  passed: number;
  failed: number;
  failures: { title: string; error: string }[];
}

/** One line of the live stream; `outcome` marks a finished test so the launcher can count. */
export interface LogRecord {
  text: string;
  outcome?: 'passed' | 'failed';
}

let logBroken = false;

/**
 * Appends one record to $DSH_TEST_LOG (and echoes its text to the extension host console). Best
 * effort: a log that cannot be written must not stop the run, whose results file still decides.
 */
export function emit(record: LogRecord): void {
  console.log(record.text);
  const file = process.env.DSH_TEST_LOG;
  if (!file || logBroken) return;
  try {
    fs.appendFileSync(file, JSON.stringify(record) + '\n');
  } catch (err) {
    logBroken = true;
    console.error(`cannot write ${file}: ${String(err)}`);
  }
}

/** Writes the final results to $DSH_TEST_RESULTS (atomically: temp file, then rename). */
export function writeResults(results: Results): void {
  const file = process.env.DSH_TEST_RESULTS;
  if (!file) return;
  fs.writeFileSync(file + '.tmp', JSON.stringify(results, null, 2));
  fs.renameSync(file + '.tmp', file);
}

/** Formats an unknown thrown value with its stack when it has one. */
export function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : errorMessage(err);
}

/** A check the launcher makes once the extension host has stopped (scripts/lib/after-host.mjs). */
export interface AfterHostCheck {
  /** What is checked, as the launcher reports it. */
  title: string;
  /** A process that must be gone within 15 s after the host run ended. */
  pid: number;
  /** A file that must then hold each of `lines` (whole lines). */
  file?: string;
  lines?: string[];
}

/**
 * Leaves `check` for the launcher, which makes it after the extension host stopped and reports it
 * as a test of its own. Throws when the launcher takes no such checks ($DSH_TEST_AFTER_HOST unset).
 */
export function checkAfterHost(check: AfterHostCheck): void {
  const file = process.env.DSH_TEST_AFTER_HOST;
  if (!file) throw new Error('DSH_TEST_AFTER_HOST is not set: the launcher (scripts/lib/run-in-host.mjs) passes it to the host');
  fs.appendFileSync(file, JSON.stringify(check) + '\n');
}
