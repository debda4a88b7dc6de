// `npm run test:integration`: packages the VSIX, installs it into a real VS Code host (code-server
// + headless Chromium, or desktop VS Code when DSH_VSCODE_EXECUTABLE is set) and runs the mocha
// suite of test/integration there on test/fixtures/workspace. Prints one line per test and ends
// with exactly one line "N passed, N failed". Exits non-zero on any failure, or when the suite
// does not report within DSH_TEST_TIMEOUT_MS (default 10 minutes, build included).
import * as path from 'node:path';
import { FIXTURE_WORKSPACE, guard, ROOT, runInHost, shutdown, VSIX } from './lib/host.mjs';

const timeoutMs = Number(process.env.DSH_TEST_TIMEOUT_MS ?? 600_000);
const state = { failed: true, counted: { passed: 0, failed: 0 } };

/** The last line for a run that did not report: what streamed, plus one failure for `why`. */
function unreported(why) {
  console.error(`run-integration: ${why}`);
  return `${state.counted.passed} passed, ${state.counted.failed + 1} failed`;
}

guard(timeoutMs, unreported);

try {
  // Two host runs: the suite in a trusted workspace, then the Restricted Mode suite
  // (test/integration/*.untrusted.test.ts) in a profile where the same folder is not trusted.
  const total = { passed: 0, failed: 0, failures: [] };
  let vsix;
  for (const trusted of [true, false]) {
    const testsModule = path.join(ROOT, 'dist/test/integration/index.js');
    const { results, exitCode } = await runInHost({ testsModule, folder: FIXTURE_WORKSPACE, state, trusted, vsix });
    vsix = VSIX;
    if (!results) {
      await shutdown(1, unreported(`the host exited (code ${exitCode}) without writing results (${trusted ? 'trusted' : 'untrusted'} run)`));
    }
    // A non-zero exit code with no failing test means run() itself failed: count it.
    const hostFailed = results.failed === 0 && exitCode !== 0;
    if (hostFailed) console.error(`run-integration: the host reported exit code ${exitCode}`);
    total.passed += results.passed;
    total.failed += results.failed + (hostFailed ? 1 : 0);
    total.failures.push(...results.failures);
  }
  if (total.failures.length > 0) {
    console.log(`\n${total.failures.length} failing:`);
    total.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}\n     ${f.error.split('\n')[0]}`));
  }
  state.failed = total.failed > 0;
  await shutdown(state.failed ? 1 : 0, `${total.passed} passed, ${total.failed} failed`);
} catch (err) {
  await shutdown(1, unreported(err?.stack ?? String(err)));
}
