// The in-host test runner (the `extensionTestsPath` module). The launcher (scripts/run-integration.mjs)
// loads it in a real extension host where DSH Bridge is installed from the VSIX. It runs every
// test/integration/**/*.test.ts, which esbuild bundles next to this file as *.test.js, with
// mocha's BDD interface (describe/it), streams one line per suite and test to the launcher and
// writes the final counts to the results file (see ./report.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
// mocha stays external (esbuild.mjs): it loads from the repository's node_modules.
import Mocha from 'mocha';
import { emit, errorText, Results, writeResults } from '../helpers/host/report';

const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

/** Mocha reporter that streams spec-like lines through `emit` and collects the results. */
function makeReporter(results: Results) {
  return class StreamReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      const indent = (r: Mocha.Runnable | Mocha.Suite) => '  '.repeat(r.titlePath().length);
      runner.on(EVENT_SUITE_BEGIN, (suite) => {
        if (suite.title) emit({ text: indent(suite).slice(2) + suite.title });
      });
      runner.on(EVENT_TEST_PASS, (test) => {
        results.passed++;
        emit({ text: `${indent(test)}✔ ${test.title} (${test.duration ?? 0} ms)`, outcome: 'passed' });
      });
      runner.on(EVENT_TEST_FAIL, (test, err) => {
        results.failed++;
        const error = errorText(err);
        results.failures.push({ title: test.fullTitle(), error });
        const detail = error
          .split('\n')
          .map((l) => `${indent(test)}    ${l}`)
          .join('\n');
        emit({ text: `${indent(test)}✘ ${test.title}\n${detail}`, outcome: 'failed' });
      });
      runner.on(EVENT_TEST_PENDING, (test) => emit({ text: `${indent(test)}- ${test.title} (skipped)` }));
    }
  };
}

/**
 * The test files of the sandboxed and zsh passes (DSH_TEST_SUITE=sandboxed: the workspace settings
 * turn the agent sandbox on; DSH_TEST_SUITE=zsh: they make sessions run zsh): the terminal tests
 * (readiness, interactive programs, signals, bounds), run again to give the same results there,
 * and, in the sandboxed pass only, every `*.sandboxed.test.js`. Kept to these for CI time.
 */
const SANDBOXED_PASS = ['terminal.test.js'];

/**
 * Lists the bundled test files under `dir`, sorted for a stable order: {@link SANDBOXED_PASS} and
 * `*.sandboxed.test.js` in the sandboxed pass, {@link SANDBOXED_PASS} in the zsh pass;
 * `*.fresh.test.js` when the
 * launcher opened a fresh window for the first-call suite (DSH_TEST_SUITE=fresh);
 * `*.untrusted.test.js` when it opened the workspace in Restricted Mode (DSH_TEST_TRUST=untrusted);
 * every other `*.test.js` otherwise, each `*.last.test.js` after the rest.
 */
function testFiles(dir: string): string[] {
  const untrusted = process.env.DSH_TEST_TRUST === 'untrusted';
  const fresh = process.env.DSH_TEST_SUITE === 'fresh';
  const all = fs.readdirSync(dir, { recursive: true }) as string[];
  if (process.env.DSH_TEST_SUITE === 'sandboxed')
    return [...SANDBOXED_PASS, ...all.filter((f) => f.endsWith('.sandboxed.test.js')).sort()].map((f) => path.join(dir, f));
  if (process.env.DSH_TEST_SUITE === 'zsh') return SANDBOXED_PASS.map((f) => path.join(dir, f));
  const picked = all
    .filter(
      (f) =>
        f.endsWith('.test.js') &&
        !f.endsWith('.sandboxed.test.js') &&
        f.endsWith('.fresh.test.js') === fresh &&
        (fresh || f.endsWith('.untrusted.test.js') === untrusted),
    )
    .sort();
  // A `.last.test.js` ends what the others need (the extension's deactivation): after them.
  const last = (f: string) => (f.endsWith('.last.test.js') ? 1 : 0);
  return picked.sort((x, y) => last(x) - last(y)).map((f) => path.join(dir, f));
}

/**
 * Entry point called by the extension host. Runs the suite, writes the results file and resolves
 * when every test passed; rejects (making the host report a non-zero exit code) otherwise.
 */
export async function run(): Promise<void> {
  const results: Results = { passed: 0, failed: 0, failures: [] };
  try {
    // DSH_TEST_GREP (a regular expression) runs only the tests whose full title matches it.
    const grep = process.env.DSH_TEST_GREP ? new RegExp(process.env.DSH_TEST_GREP) : undefined;
    const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: makeReporter(results), grep });
    const files = testFiles(__dirname);
    if (files.length === 0) throw new Error(`no *.test.js files next to ${__filename}`);
    files.forEach((f) => mocha.addFile(f));
    await new Promise<void>((resolve) => mocha.run(() => resolve()));
  } catch (err) {
    // A test file that throws while loading, or mocha itself failing: report it as a failure.
    results.failed++;
    results.failures.push({ title: 'loading the integration suite', error: errorText(err) });
    emit({ text: `✘ loading the integration suite\n${errorText(err)}`, outcome: 'failed' });
  }
  writeResults(results);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
}
