// @ts-check
// A desktop VS Code (DSH_VSCODE_EXECUTABLE) as the host. It is started directly rather than
// through @vscode/test-electron's runTests, which always adds --disable-workspace-trust and so
// could never open the Restricted Mode run; test-electron still finds the CLI next to the
// executable.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { desktopCli } from './hosts.mjs';
import { API_CONSUMER, ROOT } from './paths.mjs';
import { killGroup, run } from './processes.mjs';
import { makeProfile } from './profile.mjs';

/**
 * Installs `vsix` into a fresh profile under `tmp` (through the VS Code CLI) and runs `testsModule`
 * in desktop VS Code `host` with `folder` open and `env` added to its environment. Resolves to
 * VS Code's exit code (non-zero when the module's run() rejected). Its output goes to
 * `<tmp>/vscode.log`; `scope` stops it if the run is abandoned.
 * @param {object} o
 * @param {Extract<import('./hosts.mjs').Host, { kind: 'desktop' }>} o.host
 * @param {string} o.tmp
 * @param {string} o.vsix
 * @param {Record<string, string>} o.env
 * @param {string} o.folder
 * @param {string} o.testsModule
 * @param {boolean} o.trusted  false: the workspace opens in Restricted Mode
 * @param {import('./cleanup.mjs').CleanupScope} o.scope
 * @returns {Promise<number>}
 */
export async function runInDesktop({ host, tmp, vsix, env, folder, testsModule, trusted, scope }) {
  const profile = makeProfile(tmp, trusted);
  const profileArgs = [`--user-data-dir=${profile.userData}`, `--extensions-dir=${profile.extensions}`];
  const { cli, cliArgs } = desktopCli(host.executable);
  console.error(`host: ${path.basename(cli)} --install-extension ${path.relative(ROOT, vsix)}`);
  run(cli, [...cliArgs, ...profileArgs, '--install-extension', vsix], { shell: process.platform === 'win32' });

  const childEnv = { ...process.env, ...env };
  delete childEnv.ELECTRON_RUN_AS_NODE; // set in a VS Code terminal: VS Code would start as plain node
  const log = path.join(tmp, 'vscode.log');
  const out = fs.openSync(log, 'a');
  const child = spawn(
    host.executable,
    [
      folder,
      ...profileArgs,
      // The flags @vscode/test-electron passes, except the trust one.
      '--no-sandbox',
      '--disable-gpu-sandbox',
      '--disable-updates',
      '--skip-welcome',
      '--skip-release-notes',
      ...(trusted ? ['--disable-workspace-trust'] : []),
      `--extensionDevelopmentPath=${API_CONSUMER}`,
      `--extensionTestsPath=${testsModule}`,
    ],
    { detached: process.platform !== 'win32', stdio: ['ignore', out, out], env: childEnv },
  );
  fs.closeSync(out);
  /** @type {Promise<number>} */
  const exited = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  scope.add(() => killGroup(child, exited));
  return exited;
}
