// @ts-check
// `npm run test:integration`: packages the VSIX, then in every tested VS Code host (1.100 and 1.139
// on code-server + headless Chromium; desktop VS Code instead when DSH_VSCODE_EXECUTABLE is set)
// installs it and runs the mocha suite of test/integration on test/fixtures/workspace twice: in a
// trusted workspace, then the Restricted Mode suite (*.untrusted.test.ts) in a profile where the
// folder is not trusted, then the first-call suite (*.fresh.test.ts) in a freshly opened window on
// test/fixtures/fresh, then the terminal tests again in the agent sandbox (`sandboxed`: only
// terminal.test.ts, on a copy of the fixture workspace whose settings say `dsh.terminal.sandbox:
// "on"`), then the terminal tests again on zsh (`zsh`: terminal.test.ts on a copy of the fixture
// workspace whose settings say `dsh.terminal.shell: "zsh"`). Each run starts with a header naming its VS Code version and ends with its counts and how
// long it took; every test prints one line; failures are listed at the end with their version. The output ends with
// exactly one line "N passed, N failed" summing all runs. Exits non-zero on any failure.
//
// Select hosts with `-- --vscode 1.100` or DSH_VSCODE_VERSIONS=1.100 (comma separated; default:
// all); select host runs with DSH_TEST_SUITES=trusted,untrusted,fresh,sandboxed,zsh (default all). A run that does not report within DSH_TEST_TIMEOUT_MS (default 15 minutes) counts as one
// failure and the next run starts.
import { cleanupScope, guard, shutdown } from './lib/cleanup.mjs';
import { describeHost, requestedVersions, resolveHosts } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_WORKSPACE, FRESH_WORKSPACE, INTEGRATION_TESTS } from './lib/paths.mjs';
import { tempDir } from './lib/profile.mjs';
import { runInHost } from './lib/run-in-host.mjs';

const runTimeoutMs = Number(process.env.DSH_TEST_TIMEOUT_MS ?? 900_000);
/** @typedef {'trusted' | 'untrusted' | 'fresh' | 'sandboxed' | 'zsh'} Suite */
const SUITES = ['trusted', 'untrusted', 'fresh', 'sandboxed', 'zsh'];
/** Which host runs, per host: DSH_TEST_SUITES (comma separated: trusted, untrusted, fresh, sandboxed, zsh), default all five. */
const suites = /** @type {Suite[]} */ (
  (process.env.DSH_TEST_SUITES ?? SUITES.join(','))
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
);
for (const s of suites) if (!SUITES.includes(s)) throw new Error(`DSH_TEST_SUITES names '${s}'; valid: ${SUITES.join(', ')}`);

/**
 * The workspace of a pass that reruns the terminal tests with one more workspace setting: a copy
 * of the fixture workspace (in a folder `scope` removes) whose workspace settings hold `settings`
 * (the sandboxed pass: the agent sandbox on; the zsh pass: sessions run zsh).
 * @param {import('./lib/cleanup.mjs').CleanupScope} scope
 * @param {{ failed: boolean }} outcome
 * @param {Record<string, unknown>} settings
 */
function workspaceWith(scope, outcome, settings) {
  const folder = path.join(tempDir(scope, outcome), 'workspace');
  fs.cpSync(FIXTURE_WORKSPACE, folder, { recursive: true });
  fs.mkdirSync(path.join(folder, '.vscode'));
  fs.writeFileSync(path.join(folder, '.vscode/settings.json'), JSON.stringify(settings, null, 2));
  return folder;
}

/** The workspace settings of each pass that reruns the terminal tests. */
const PASS_SETTINGS = { sandboxed: { 'dsh.terminal.sandbox': 'on' }, zsh: { 'dsh.terminal.shell': 'zsh' } };

/**
 * Sums over every finished run; `failures` titles name their host run.
 * @type {{ passed: number, failed: number, failures: { title: string, error: string }[] }}
 */
const total = { passed: 0, failed: 0, failures: [] };
/** Outcomes streamed by the run in progress (counted in the last line if it is interrupted). */
let current = { passed: 0, failed: 0 };

/** The last line when the whole run stops early: what finished and streamed, plus one failure. */
function stoppedEarly(/** @type {string} */ why) {
  console.error(`run-integration: ${why}`);
  return `${total.passed + current.passed} passed, ${total.failed + current.failed + 1} failed`;
}

guard(undefined, stoppedEarly);

/**
 * Rejects with `message` after `ms` unless `promise` settles first.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} message
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms, message) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return /** @type {Promise<T>} */ (Promise.race([promise, timeout]).finally(() => clearTimeout(timer)));
}

/**
 * One host run: prints its header, runs the suite, adds its counts to `total` and stops
 * everything it started.
 * @param {import('./lib/hosts.mjs').Host} host
 * @param {Suite} suite  `fresh`: the first-call suite in a trusted fresh window; `sandboxed`: the
 *   terminal tests with `dsh.terminal.sandbox: "on"` in the workspace settings; `zsh`: the
 *   terminal tests with `dsh.terminal.shell: "zsh"`
 * @param {string} vsix
 */
async function runOnce(host, suite, vsix) {
  const trusted = suite !== 'untrusted';
  const what = {
    trusted: 'trusted workspace',
    untrusted: 'Restricted Mode',
    fresh: 'first calls in a fresh window',
    sandboxed: 'terminal tests in the agent sandbox',
    zsh: 'terminal tests on zsh',
  }[suite];
  const started = Date.now();
  const label = `VS Code ${host.vscode}, ${what}`;
  console.log(`\n=== ${describeHost(host)}: ${what} ===`);
  current = { passed: 0, failed: 0 };
  const scope = cleanupScope();
  const outcome = { failed: true };
  /** @type {{ passed: number, failed: number, failures: { title: string, error: string }[] }} */
  let tally;
  try {
    const folder =
      suite === 'fresh'
        ? FRESH_WORKSPACE
        : suite === 'sandboxed' || suite === 'zsh'
          ? workspaceWith(scope, outcome, PASS_SETTINGS[suite])
          : FIXTURE_WORKSPACE;
    const running = runInHost({
      host,
      testsModule: INTEGRATION_TESTS,
      folder,
      trusted,
      vsix,
      scope,
      outcome,
      counted: current,
      ...(suite === 'fresh' || suite === 'sandboxed' || suite === 'zsh' ? { env: { DSH_TEST_SUITE: suite } } : {}),
    });
    running.catch(() => {}); // after a timeout it may still reject, once its processes are stopped
    const { results, exitCode } = await withTimeout(
      running,
      runTimeoutMs,
      `no results within ${runTimeoutMs / 1000} s (DSH_TEST_TIMEOUT_MS, in ms, raises the limit)`,
    );
    if (!results) throw new Error(`the host exited (code ${exitCode}) without writing results`);
    tally = { passed: results.passed, failed: results.failed, failures: results.failures };
    if (results.failed === 0 && exitCode !== 0) {
      // run() failed although no test did: count it.
      tally.failed++;
      tally.failures.push({ title: 'the suite', error: `the host reported exit code ${exitCode}` });
    }
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.log(`✘ ${label}: ${error.split('\n')[0]}`);
    tally = { passed: current.passed, failed: current.failed + 1, failures: [{ title: 'the host run', error }] };
  }
  outcome.failed = tally.failed > 0;
  console.log(`(${label}: ${tally.passed} tests passed, ${tally.failed} failed, in ${Math.round((Date.now() - started) / 1000)} s)`);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.failures.push(...tally.failures.map((f) => ({ title: `[${label}] ${f.title}`, error: f.error })));
  current = { passed: 0, failed: 0 };
  await scope.close();
}

try {
  const hosts = resolveHosts(requestedVersions(process.argv.slice(2)));
  const vsix = packageVsix();
  for (const host of hosts) {
    for (const suite of suites) await runOnce(host, suite, vsix);
  }
  if (total.failures.length > 0) {
    console.log('\nFailed, by host run:');
    total.failures.forEach((f, i) => console.log(`  ${i + 1}) ${f.title}\n     ${f.error.split('\n')[0]}`));
  }
  await shutdown(total.failed > 0 ? 1 : 0, `${total.passed} passed, ${total.failed} failed`);
} catch (err) {
  await shutdown(1, stoppedEarly(err instanceof Error ? (err.stack ?? err.message) : String(err)));
}
