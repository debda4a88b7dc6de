// @ts-check
// Running a bundled module inside a VS Code host, as the extension-tests module.
//
// The in-host side (test/helpers/host/report.ts) appends JSON lines to $DSH_TEST_LOG and writes
// $DSH_TEST_RESULTS at the end; both are in the host's environment, which its extension host
// inherits.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { startCodeServer } from './code-server.mjs';
import { runInDesktop } from './desktop.mjs';
import { runAfterHostChecks } from './after-host.mjs';
import { follow } from './follow.mjs';
import { tempDir } from './profile.mjs';
import { openWorkbench } from './workbench.mjs';

/**
 * What the in-host module writes at the end (test/helpers/host/report.ts `Results`).
 * @typedef {{ passed: number, failed: number, failures: { title: string, error: string }[] }} Results
 */

/**
 * The outcome of one host run.
 * @typedef {object} HostRun
 * @property {Results | undefined} results  undefined when the module never wrote its results
 * @property {number} exitCode  the code VS Code reported for the module's run()
 * @property {import('./code-server.mjs').CodeServer | undefined} server  the code-server, still running
 *   until `scope` closes (undefined for desktop VS Code)
 */

/**
 * Installs `vsix` into `host`, opens `folder` (trusted, or in Restricted Mode) and runs the bundled
 * `testsModule` there. Every record the module emits is printed to stdout as it arrives, and the
 * pass/fail outcomes seen are added to `counted` as they stream (so a run that never reports
 * still says what it saw). Everything started belongs to `scope`: the caller closes it when done
 * (the demo keeps the server up). `outcome.failed` decides whether the run's logs are kept.
 * @param {object} o
 * @param {import('./hosts.mjs').Host} o.host
 * @param {string} o.testsModule  absolute path of the bundled module
 * @param {string} o.folder  the workspace folder to open
 * @param {boolean} o.trusted
 * @param {string} o.vsix
 * @param {import('./cleanup.mjs').CleanupScope} o.scope
 * @param {{ failed: boolean }} o.outcome
 * @param {{ passed: number, failed: number }} o.counted
 * @param {Record<string, string>} [o.env]  more environment for the host (e.g. DSH_TEST_SUITE)
 * @returns {Promise<HostRun>}
 */
export async function runInHost({ host, testsModule, folder, trusted, vsix, scope, outcome, counted, env: extraEnv = {} }) {
  const tmp = tempDir(scope, outcome);
  const resultsFile = path.join(tmp, 'results.json');
  const logFile = path.join(tmp, 'host-log.jsonl');
  const afterHostFile = path.join(tmp, 'after-host.jsonl');
  const stop = follow(logFile, (rec) => {
    process.stdout.write(rec.text + '\n');
    if (rec.outcome) counted[rec.outcome]++;
  });
  scope.add(stop);
  const env = {
    DSH_TEST_RESULTS: resultsFile,
    DSH_TEST_LOG: logFile,
    // Lets the suite check that the extension runs from the installed VSIX.
    DSH_EXTENSIONS_DIR: path.join(tmp, 'extensions'),
    // Lets the suite check that no terminal content reaches logs or storage on disk.
    DSH_USER_DATA_DIR: path.join(tmp, 'user-data'),
    // Which suites run: `*.untrusted.test.js` in Restricted Mode, every other one when trusted.
    DSH_TEST_TRUST: trusted ? 'trusted' : 'untrusted',
    // Checks to make once the host has stopped (./after-host.mjs).
    DSH_TEST_AFTER_HOST: afterHostFile,
    ...extraEnv,
  };

  /** @type {number} */
  let exitCode;
  /** @type {import('./code-server.mjs').CodeServer | undefined} */
  let server;
  if (host.kind === 'desktop') {
    exitCode = await runInDesktop({ host, tmp, vsix, env, folder, testsModule, trusted, scope });
  } else {
    const started = await startCodeServer({ host, tmp, vsix, env, trusted, scope });
    server = started;
    console.error(`host: code-server listening on ${started.url}, opening the workbench`);
    const workbench = await openWorkbench({ server: started, tmp, folder, testsModule, scope });
    exitCode = await Promise.race([
      workbench.exitCode,
      started.exited.then((c) => {
        throw new Error(`code-server exited (${c}) while the module ran; see ${started.log}`);
      }),
    ]);
    await workbench.close(); // the test window is done; code-server stays up until scope closes
  }
  stop();
  /** @type {Results | undefined} */
  const results = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : undefined;
  const after = await runAfterHostChecks(afterHostFile);
  counted.passed += after.passed;
  counted.failed += after.failed;
  if (results) {
    results.passed += after.passed;
    results.failed += after.failed;
    results.failures.push(...after.failures);
  }
  return { results, exitCode, server };
}
