// `npm run test:integration`: packages the VSIX, installs it into a real VS Code host (code-server
// + headless Chromium, or desktop VS Code when DSH_VSCODE_EXECUTABLE is set) and runs the mocha
// suite of test/integration there on test/fixtures/workspace. Prints one line per test and ends
// with exactly one line "N passed, N failed". Exits non-zero on any failure, or when the suite
// does not report within DSH_TEST_TIMEOUT_MS (default 10 minutes, build included).
import * as path from 'node:path';
import { FIXTURE_WORKSPACE, guard, ROOT, runInHost, shutdown } from './lib/host.mjs';

const timeoutMs = Number(process.env.DSH_TEST_TIMEOUT_MS ?? 600_000);
const state = { failed: true, counted: { passed: 0, failed: 0 } };

let reported = false;
/** Prints the run's last line, once (a timeout and the run it interrupts may both get here). */
function summary(passed, failed, why) {
  if (reported) return;
  reported = true;
  if (why) console.error(`run-integration: ${why}`);
  console.log(`${passed} passed, ${failed} failed`);
}

// A suite that does not report counts as one more failure on top of what it streamed.
guard(timeoutMs, () =>
  summary(state.counted.passed, state.counted.failed + 1, `the suite did not report within ${timeoutMs / 1000} s`),
);

try {
  const { results, exitCode } = await runInHost({
    testsModule: path.join(ROOT, 'dist/test/integration/index.js'),
    folder: FIXTURE_WORKSPACE,
    state,
  });
  if (!results) {
    summary(state.counted.passed, state.counted.failed + 1, `the host exited (code ${exitCode}) without writing results`);
  } else {
    if (results.failed > 0) {
      console.log(`\n${results.failed} failing:`);
      results.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}\n     ${f.error.split('\n')[0]}`));
    }
    state.failed = results.failed > 0 || exitCode !== 0;
    const hostFailed = results.failed === 0 && exitCode !== 0; // e.g. run() threw after writing results
    summary(results.passed, results.failed + (hostFailed ? 1 : 0), hostFailed ? `host exit code ${exitCode}` : undefined);
  }
} catch (err) {
  summary(state.counted.passed, state.counted.failed + 1, err?.stack ?? String(err));
}
await shutdown(state.failed ? 1 : 0);
