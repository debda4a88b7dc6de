// @ts-check
// code-server: a VS Code (OSS) server whose workbench runs in a browser and whose extension host is
// a real Node process on this machine. See scripts/install-host.sh for the installed versions.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sleep } from './cleanup.mjs';
import { ROOT } from './paths.mjs';
import { killGroup, run } from './processes.mjs';
import { makeProfile } from './profile.mjs';

/**
 * A running code-server.
 * @typedef {object} CodeServer
 * @property {string} url  http://127.0.0.1:PORT
 * @property {number} port
 * @property {{ userData: string, extensions: string }} profile
 * @property {string} log  its stdout and stderr
 * @property {Promise<number | string>} exited  settles with the exit code or signal when it ends
 */

/**
 * From VS Code 1.133 a built web workbench ignores `extensionDevelopmentPath` and
 * `extensionTestsPath` in the URL payload unless the smoke-test driver is enabled; code-server
 * (4.134 and later) passes the option through. Without it the workbench loads and the tests never
 * start, with no error in any log.
 * @param {string} vscode  VS Code version
 */
function needsSmokeTestDriver(vscode) {
  const [major = 0, minor = 0] = vscode.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 133);
}

/**
 * Installs `vsix` into a fresh profile under `tmp` and starts code-server `host` on 127.0.0.1 (a
 * port the OS picks) with `env` added to its environment, run by the host's node so that the
 * shells an extension opens keep this process's PATH. Resolves once it listens; rejects if it
 * exits first or does not listen within 60 s. `scope` stops it (and its process group). With
 * `extensionTests` false (default true) the smoke-test driver option is left off: the server is for
 * plain windows only, as a person uses it.
 * @param {object} o
 * @param {Extract<import('./hosts.mjs').Host, { kind: 'code-server' }>} o.host
 * @param {string} o.tmp
 * @param {string} o.vsix
 * @param {Record<string, string>} o.env
 * @param {boolean} o.trusted  false: the workspace opens in Restricted Mode
 * @param {boolean} [o.extensionTests]
 * @param {import('./cleanup.mjs').CleanupScope} o.scope
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer({ host, tmp, vsix, env, trusted, extensionTests = true, scope }) {
  const profile = makeProfile(tmp, trusted);
  const config = path.join(tmp, 'code-server.yaml'); // keeps code-server away from ~/.config
  fs.writeFileSync(config, 'auth: none\n');
  const base = [host.entry, '--config', config, '--user-data-dir', profile.userData, '--extensions-dir', profile.extensions];

  console.error(`host: code-server --install-extension ${path.relative(ROOT, vsix)}`);
  run(host.node, [...base, '--install-extension', vsix]);

  const log = path.join(tmp, 'code-server.log');
  const out = fs.openSync(log, 'a');
  const child = spawn(
    host.node,
    [
      ...base,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      ...(trusted ? ['--disable-workspace-trust'] : []),
      '--ignore-last-opened',
      ...(extensionTests && needsSmokeTestDriver(host.vscode) ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ],
    { detached: true, stdio: ['ignore', out, out], env: { ...process.env, ...env } },
  );
  fs.closeSync(out);
  /** @type {Promise<number | string>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  scope.add(() => killGroup(child, exited));

  // code-server prints "HTTP server listening on http://127.0.0.1:PORT/" once it is up.
  const deadline = Date.now() + 60_000;
  /** @type {number | string | undefined} */
  let gone;
  void exited.then((c) => (gone = c)); // never rejects: it resolves with the exit code or signal
  for (;;) {
    const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(fs.readFileSync(log, 'utf8'));
    if (m) {
      const port = Number(m[1]);
      return { url: `http://127.0.0.1:${port}`, port, profile, log, exited };
    }
    if (gone !== undefined) throw new Error(`code-server exited (${gone}) before listening; see ${log}`);
    if (Date.now() > deadline) throw new Error(`code-server did not listen within 60 s; see ${log}`);
    await sleep(100);
  }
}
