// @ts-check
// Which VS Code hosts a run uses, and where they are. scripts/install-host.sh holds the table of
// tested versions (1.100: the oldest `engines.vscode` allows; 1.139: the newest) and installs each
// into ~/.cache/dsh-bridge on first use; this module asks it for the selected ones.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveCliArgsFromVSCodeExecutablePath } from '@vscode/test-electron';
import { ROOT } from './paths.mjs';
import { run } from './processes.mjs';

/**
 * A VS Code to run the suite in: code-server (VS Code OSS in a browser workbench, started as
 * `node entry …`) or a desktop VS Code given by its executable.
 * @typedef {{ kind: 'code-server', vscode: string, codeServer: string, node: string, entry: string }
 *   | { kind: 'desktop', vscode: string, executable: string }} Host
 */

/**
 * The VS Code versions a launcher should use: the value after `--vscode` in `argv` (comma or space
 * separated), else $DSH_VSCODE_VERSIONS, else `fallback` (undefined = every tested host). Each
 * is a version or its prefix as install-host.sh accepts it, e.g. "1.100" or "1.139.1".
 * @param {string[]} argv
 * @param {string[]} [fallback]
 * @returns {string[] | undefined}
 */
export function requestedVersions(argv, fallback) {
  const i = argv.indexOf('--vscode');
  const raw = i >= 0 ? (argv[i + 1] ?? '') : process.env.DSH_VSCODE_VERSIONS;
  if (raw === undefined) return fallback;
  const versions = raw.split(/[\s,]+/).filter(Boolean);
  if (versions.length === 0) throw new Error('--vscode / DSH_VSCODE_VERSIONS names no version; give e.g. 1.100 or 1.100,1.139');
  return versions;
}

/**
 * The hosts to run in. With $DSH_VSCODE_EXECUTABLE set: that desktop VS Code only. Otherwise the
 * code-server hosts for `versions` (undefined = all), installed on first use by
 * scripts/install-host.sh, which also names the node each runs on. Throws when the script fails
 * (an unknown version included) or prints a path that does not exist.
 * @param {string[] | undefined} versions
 * @returns {Host[]}
 */
export function resolveHosts(versions) {
  const executable = process.env.DSH_VSCODE_EXECUTABLE;
  if (executable) return [{ kind: 'desktop', vscode: desktopVersion(executable), executable }];
  const res = run('bash', [path.join(ROOT, 'scripts/install-host.sh'), ...(versions ?? [])], {
    stdio: ['ignore', 'pipe', process.stderr],
    encoding: 'utf8',
  });
  return String(res.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [vscode, node, entry] = line.split('\t');
      if (!vscode || !node || !entry || !fs.existsSync(node) || !fs.existsSync(entry)) {
        throw new Error(`install-host.sh printed an unusable line: ${JSON.stringify(line)}`);
      }
      // entry is <code-server>/out/node/entry.js; its VS Code is in <code-server>/lib/vscode.
      const dir = path.resolve(path.dirname(entry), '../..');
      const version = (/** @type {string} */ rel) => String(JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8')).version);
      const codeServer = version('package.json');
      if (version('lib/vscode/package.json') !== vscode) {
        throw new Error(`code-server ${codeServer} at ${dir} holds VS Code ${version('lib/vscode/package.json')}, not ${vscode}`);
      }
      return { kind: 'code-server', vscode, codeServer, node, entry };
    });
}

/**
 * The one host a launcher runs in: the first of {@link resolveHosts}(`versions`). Throws as
 * resolveHosts does, and when it resolves none.
 * @param {string[] | undefined} versions
 * @returns {Host}
 */
export function resolveHost(versions) {
  const [host] = resolveHosts(versions);
  if (!host) throw new Error(`no VS Code host resolved for ${versions ? versions.join(', ') : 'the tested versions'}`);
  return host;
}

/**
 * The CLI of a desktop VS Code (`executable`) and the arguments to pass it before its own, as
 * @vscode/test-electron finds them. Throws when it finds none.
 * @param {string} executable
 * @returns {{ cli: string, cliArgs: string[] }}
 */
export function desktopCli(executable) {
  const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(executable, { reuseMachineInstall: true });
  if (cli === undefined) throw new Error(`@vscode/test-electron found no CLI for ${executable}`);
  return { cli, cliArgs };
}

/**
 * The version a desktop VS Code's CLI reports (first line of `code --version`), or "desktop" if it
 * reports none. Throws when `executable` does not exist.
 */
function desktopVersion(/** @type {string} */ executable) {
  if (!fs.existsSync(executable)) throw new Error(`DSH_VSCODE_EXECUTABLE=${executable} does not exist`);
  try {
    const { cli, cliArgs } = desktopCli(executable);
    const res = run(cli, [...cliArgs, '--version'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    const [firstLine = ''] = String(res.stdout).split('\n');
    return firstLine.trim() || 'desktop';
  } catch {
    return 'desktop';
  }
}

/** A one-line description of `host` for headers, e.g. "VS Code 1.139.1 (code-server 4.139.1, node v24.22.3)". */
export function describeHost(/** @type {Host} */ host) {
  if (host.kind === 'desktop') return `VS Code ${host.vscode} (desktop, ${host.executable})`;
  return `VS Code ${host.vscode} (code-server ${host.codeServer}, node ${nodeVersion(host.node)})`;
}

/** @type {Map<string, string>} */
const nodeVersions = new Map();
function nodeVersion(/** @type {string} */ node) {
  let v = nodeVersions.get(node);
  if (v === undefined) {
    v = String(run(node, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).stdout).trim();
    nodeVersions.set(node, v);
  }
  return v;
}
