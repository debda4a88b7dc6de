// Shared launcher code for `npm run test:integration` and `npm run demo`: build and package the
// VSIX, install it into a real VS Code host, run a bundled module there as the extension-tests
// module, stream what it reports and read its results. Two hosts:
//   - code-server (default): VS Code 1.100 on 127.0.0.1 with a throwaway profile, driven by
//     headless Chromium through playwright-core (../shared/notes/vscode-host-offline.md);
//   - desktop VS Code through @vscode/test-electron when DSH_VSCODE_EXECUTABLE names its binary.
//
// Tests run against the INSTALLED VSIX. VS Code only runs `extensionTestsPath` in extension
// development mode, which needs an `extensionDevelopmentPath` (checked: code-server 4.100.3 ignores
// extensionTestsPath alone). We point that at test/fixtures/api-consumer, a test-only second
// extension that uses DSH Bridge's API; dsh.dsh-bridge itself loads from the extensions folder,
// which the suite asserts (test/integration/tools.test.ts).
//
// The in-host side (test/integration/report.ts) appends JSON lines to $DSH_TEST_LOG and writes
// $DSH_TEST_RESULTS at the end; both are in code-server's environment, which its extension host
// inherits. Every process started here is stopped on exit, success or failure (see `shutdown`).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The packaged extension. */
export const VSIX = path.join(ROOT, 'dist/dsh-bridge.vsix');
/**
 * The extension under development while tests run: a test-only second extension that uses DSH
 * Bridge's API (VS Code runs extensionTestsPath only in development mode). DSH Bridge itself
 * loads from the installed VSIX.
 */
export const API_CONSUMER = path.join(ROOT, 'test/fixtures/api-consumer');
/** The workspace both launchers open. */
export const FIXTURE_WORKSPACE = path.join(ROOT, 'test/fixtures/workspace');

const CHROMIUM = process.env.DSH_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
const VSIX_MUST_HOLD = [
  'extension/dist/extension.js',
  'extension/node_modules/node-pty/lib/index.js',
  'extension/node_modules/node-pty/build/Release/pty.node',
];

// ---------------------------------------------------------------------------------------------
// Cleanup: every resource registers an undo step; `shutdown` runs them newest first, once.

const cleanups = [];
let shuttingDown = false;

/** Registers `fn` (sync or async) to run on shutdown, newest first. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

/**
 * Runs every cleanup step (each bounded to 10 s, errors reported, never thrown), prints
 * `lastLine` (if any) to stdout so it really is the last line of the run, then exits with `code`.
 */
export async function shutdown(code, lastLine) {
  if (shuttingDown) return;
  shuttingDown = true;
  while (cleanups.length > 0) {
    const fn = cleanups.pop();
    try {
      await Promise.race([fn(), sleep(10_000)]);
    } catch (err) {
      console.error(`cleanup: ${err?.message ?? err}`);
    }
  }
  if (lastLine !== undefined) console.log(lastLine);
  process.exit(code);
}

/**
 * Stops everything on Ctrl-C / SIGTERM (exit 130 / 143), on an uncaught exception (exit 1) and
 * after `timeoutMs` (exit 1). `lastLine(why)` gives the line to end the output with in each case.
 * Returns a function that disarms the timeout.
 */
export function guard(timeoutMs, lastLine) {
  process.on('SIGINT', () => void shutdown(130, lastLine('interrupted')));
  process.on('SIGTERM', () => void shutdown(143, lastLine('terminated')));
  process.on('uncaughtException', (err) => void shutdown(1, lastLine(`uncaught: ${err?.stack ?? err}`)));
  const timer = setTimeout(() => void shutdown(1, lastLine(`no report within ${timeoutMs / 1000} s`)), timeoutMs);
  return () => clearTimeout(timer);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Build, package, locate the host.

/** Runs a command to completion with its output on our stderr; throws with the command on failure. */
function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr], ...opts });
  if (res.error) throw new Error(`${cmd} ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
  return res;
}

/**
 * Builds every bundle and packages the VSIX (`npm run package`), then checks that the VSIX holds
 * the extension bundle and node-pty (JS and native module). Returns the VSIX path.
 */
export function packageVsix() {
  console.error('host: npm run package');
  run('npm', ['run', '--silent', 'package']);
  const zip = fs.readFileSync(VSIX); // zip entry names are stored uncompressed
  const missing = VSIX_MUST_HOLD.filter((name) => !zip.includes(name));
  if (missing.length > 0) throw new Error(`${VSIX} lacks ${missing.join(', ')}`);
  return VSIX;
}

/**
 * Returns the code-server binary: $DSH_CODE_SERVER, else the last stdout line of
 * scripts/install-host.sh (which installs it into ~/.cache/dsh-bridge on first use).
 */
export function codeServerBin() {
  if (process.env.DSH_CODE_SERVER) return process.env.DSH_CODE_SERVER;
  const res = run('bash', [path.join(ROOT, 'scripts/install-host.sh')], {
    stdio: ['ignore', 'pipe', process.stderr],
    encoding: 'utf8',
  });
  const bin = res.stdout.trim().split('\n').pop();
  if (!bin || !fs.existsSync(bin)) throw new Error(`install-host.sh printed no usable code-server path (${bin})`);
  return bin;
}

/**
 * Creates a temporary folder removed on shutdown; kept (and its path printed) when the run failed
 * or DSH_KEEP_TMP=1, because it holds the host's logs.
 */
export function tempDir(state) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bridge-host-'));
  onCleanup(() => {
    if (state.failed || process.env.DSH_KEEP_TMP === '1') console.error(`host: logs kept in ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * A throwaway VS Code profile under `tmp`: user data and extensions folders. Workspace trust is
 * off unless `trusted` is false: then trust is on, nothing is trusted yet and no dialog asks, so
 * the folder opens in Restricted Mode.
 */
function makeProfile(tmp, trusted = true) {
  const userData = path.join(tmp, 'user-data');
  const extensions = path.join(tmp, 'extensions');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(extensions, { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User/settings.json'),
    JSON.stringify({
      ...(trusted
        ? { 'security.workspace.trust.enabled': false }
        : {
            'security.workspace.trust.enabled': true,
            'security.workspace.trust.startupPrompt': 'never',
            'security.workspace.trust.banner': 'never',
            'security.workspace.trust.emptyWindow': false,
          }),
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'workbench.startupEditor': 'none',
    }, null, 2),
  );
  return { userData, extensions };
}

// ---------------------------------------------------------------------------------------------
// code-server

/**
 * Installs `vsix` into a fresh profile under `tmp` and starts code-server on 127.0.0.1 (a port the
 * OS picks) with `env` added to its environment. Resolves to `{url, port, profile, log, exited}`
 * once it listens; `exited` settles when the server process ends. Stopped on shutdown.
 */
export async function startCodeServer({ bin, tmp, vsix, env, trusted = true }) {
  const profile = makeProfile(tmp, trusted);
  const config = path.join(tmp, 'code-server.yaml'); // keeps code-server away from ~/.config
  fs.writeFileSync(config, 'auth: none\n');
  const base = ['--config', config, '--user-data-dir', profile.userData, '--extensions-dir', profile.extensions];

  console.error(`host: code-server --install-extension ${path.relative(ROOT, vsix)}`);
  run(bin, [...base, '--install-extension', vsix]);

  const log = path.join(tmp, 'code-server.log');
  const out = fs.openSync(log, 'a');
  const child = spawn(
    bin,
    [...base, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
      ...(trusted ? ['--disable-workspace-trust'] : []), '--ignore-last-opened'],
    { detached: true, stdio: ['ignore', out, out], env: { ...process.env, ...env } },
  );
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  onCleanup(() => killGroup(child, exited));

  // code-server prints "HTTP server listening on http://127.0.0.1:PORT/" once it is up.
  const deadline = Date.now() + 60_000;
  let gone;
  exited.then((c) => (gone = c));
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

/** SIGTERM to the process group of `child`, SIGKILL after 5 s if it is still there. */
async function killGroup(child, exited) {
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) return signal('SIGKILL'); // stray children
  signal('SIGTERM');
  if ((await Promise.race([exited.then(() => 'exited'), sleep(5000)])) !== 'exited') signal('SIGKILL');
}

/**
 * Opens the workbench for `server` in headless Chromium at `folder`, running `testsModule` (an
 * absolute path on this machine) as the extension-tests module. Resolves to `{exitCode, close}`:
 * `exitCode` settles with the code VS Code reports when the module's `run()` settled
 * (`window.codeAutomationExit`); `close()` closes the browser. Its console goes to
 * `<tmp>/browser-console.log`.
 */
export async function openWorkbench({ server, tmp, folder, testsModule }) {
  const { chromium } = await import('playwright-core');
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(API_CONSUMER)],
    ['extensionTestsPath', remote(testsModule)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const close = () => browser.close();
  onCleanup(close);
  const page = await browser.newPage();
  const consoleLog = path.join(tmp, 'browser-console.log');
  page.on('console', (msg) => fs.appendFileSync(consoleLog, `[${msg.type()}] ${msg.text()}\n`));
  page.on('pageerror', (err) => fs.appendFileSync(consoleLog, `[pageerror] ${err.stack ?? err}\n`));
  let reportExit;
  const exitCode = new Promise((resolve) => (reportExit = resolve));
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(code));
  await page.goto(url);
  return { exitCode, close };
}

// ---------------------------------------------------------------------------------------------
// Desktop VS Code through @vscode/test-electron

/**
 * Installs `vsix` into a fresh profile of the desktop VS Code at `executable` (through its CLI)
 * and runs `testsModule` there with `env` and `folder` open. Resolves to VS Code's exit code.
 */
export async function runWithTestElectron({ executable, tmp, vsix, env, folder, testsModule, trusted = true }) {
  if (!fs.existsSync(executable)) throw new Error(`DSH_VSCODE_EXECUTABLE=${executable} does not exist`);
  const { runTests, resolveCliArgsFromVSCodeExecutablePath } = await import('@vscode/test-electron');
  const profile = makeProfile(tmp, trusted);
  const profileArgs = [`--user-data-dir=${profile.userData}`, `--extensions-dir=${profile.extensions}`];
  const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(executable, { reuseMachineInstall: true });
  console.error(`host: ${path.basename(cli)} --install-extension ${path.relative(ROOT, vsix)}`);
  run(cli, [...cliArgs, ...profileArgs, '--install-extension', vsix], { shell: process.platform === 'win32' });
  // runTests does not hand out its child; its own Ctrl-C handling (SIGINT, then SIGINT again
  // = kill the process tree) is the way to stop VS Code if we shut down first.
  let running = true;
  onCleanup(() => {
    if (running) for (let i = 0; i < 2 && process.listenerCount('SIGINT') > 0; i++) process.emit('SIGINT');
  });
  try {
    return await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: API_CONSUMER,
      extensionTestsPath: testsModule,
      launchArgs: [folder, ...profileArgs, ...(trusted ? ['--disable-workspace-trust'] : [])],
      // Started from a VS Code terminal, ELECTRON_RUN_AS_NODE would make VS Code a plain node.
      extensionTestsEnv: { ...env, ELECTRON_RUN_AS_NODE: undefined },
    });
  } catch (err) {
    if (typeof err?.code === 'number') return err.code; // TestRunFailedError
    throw err;
  } finally {
    running = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Running a module in the host

/**
 * Follows the JSON-lines file `file` as it grows, calling `onRecord` for every complete line.
 * Returns a function that reads what is left and stops following.
 */
export function follow(file, onRecord) {
  let offset = 0;
  let partial = '';
  const drain = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return; // not created yet
    }
    try {
      const buf = Buffer.alloc(64 * 1024);
      let n;
      while ((n = fs.readSync(fd, buf, 0, buf.length, offset)) > 0) {
        offset += n;
        partial += buf.toString('utf8', 0, n);
      }
    } finally {
      fs.closeSync(fd);
    }
    const lines = partial.split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (!line) continue;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        record = { text: line }; // never let a torn line stop the run
      }
      onRecord(record);
    }
  };
  const timer = setInterval(drain, 100);
  return () => {
    clearInterval(timer);
    drain();
  };
}

/**
 * Packages the VSIX, installs it into the host (desktop VS Code when DSH_VSCODE_EXECUTABLE is set,
 * else code-server), opens `folder` and runs the bundled `testsModule` there. Every record the
 * module emits is printed to stdout as it arrives. Resolves to
 * `{results, exitCode, server, counted}` where `results` is the module's results file (undefined
 * if it never wrote one), `counted` the pass/fail outcomes seen in the stream, and `server` the
 * running code-server (undefined for desktop VS Code), left running for the caller.
 */
export async function runInHost({ testsModule, folder, state, trusted = true, vsix = packageVsix() }) {
  const tmp = tempDir(state);
  const resultsFile = path.join(tmp, 'results.json');
  const logFile = path.join(tmp, 'host-log.jsonl');
  const counted = { passed: 0, failed: 0 };
  state.counted = counted;
  const stop = follow(logFile, (rec) => {
    process.stdout.write(rec.text + '\n');
    if (rec.outcome) counted[rec.outcome]++;
  });
  onCleanup(stop);
  // DSH_EXTENSIONS_DIR lets the suite check that the extension runs from the installed VSIX.
  // DSH_USER_DATA_DIR lets it check that no terminal content reaches logs or storage on disk.
  const env = {
    DSH_TEST_RESULTS: resultsFile,
    DSH_TEST_LOG: logFile,
    DSH_EXTENSIONS_DIR: path.join(tmp, 'extensions'),
    DSH_USER_DATA_DIR: path.join(tmp, 'user-data'),
    // Which suites run: `*.untrusted.test.js` in Restricted Mode, every other one when trusted.
    DSH_TEST_TRUST: trusted ? 'trusted' : 'untrusted',
  };

  let exitCode;
  let server;
  const executable = process.env.DSH_VSCODE_EXECUTABLE;
  if (executable) {
    exitCode = await runWithTestElectron({ executable, tmp, vsix, env, folder, testsModule, trusted });
  } else {
    server = await startCodeServer({ bin: codeServerBin(), tmp, vsix, env, trusted });
    console.error(`host: code-server listening on ${server.url}, opening the workbench`);
    const workbench = await openWorkbench({ server, tmp, folder, testsModule });
    exitCode = await Promise.race([
      workbench.exitCode,
      server.exited.then((c) => {
        throw new Error(`code-server exited (${c}) while the suite ran; see ${server.log}`);
      }),
    ]);
    await workbench.close(); // the test window is done; code-server stays up for the caller
  }
  stop();
  const results = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : undefined;
  return { results, exitCode, server, counted };
}
