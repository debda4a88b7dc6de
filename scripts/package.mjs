// @ts-check
// `npm run package`: the production build, then one VSIX per platform into dist/:
//   dsh-bridge-linux-x64-<version>.vsix     node-pty as `npm ci` built and patched it here (Linux x64 only)
//   dsh-bridge-darwin-x64-<version>.vsix    node-pty 1.1.0's own prebuilt macOS binaries
//   dsh-bridge-darwin-arm64-<version>.vsix  the same for Apple silicon
//   dsh-bridge-universal-<version>.vsix     no native binary (Windows: navigation and MCP; elsewhere
//                                           terminals through VS Code's own node-pty)
// and dist/dsh-bridge.vsix, a copy of this machine's own platform's VSIX, which the integration
// runner, `npm run demo` and `npm run test:desktop` install.
//
// `.vscodeignore` is the allowlist every VSIX shares (what `vsce ls` lists: the universal set);
// each target adds its own native files (TARGETS). test/shell/package-vsix.test.ts opens every
// VSIX and checks each binary's header against its target. Options: `--out-dir DIR` writes the VSIXs there instead of dist/ (no copy is made);
// `--no-build` skips the build; `--target T` (repeatable) packages only those targets, `--target host`
// only this machine's (what the integration runner and the demo install).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, VSIX } from './lib/paths.mjs';
import { run } from './lib/processes.mjs';

const NODE_PTY = 'node_modules/node-pty';
const SECCOMP = 'node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp';

/**
 * The native files each target adds to the shared allowlist (paths relative to the repository),
 * and which of them must be executable. node-pty loads `build/Release/pty.node` first, then
 * `prebuilds/<platform>-<arch>/pty.node` (its lib/utils.js); on macOS it starts every shell
 * through `spawn-helper` beside it. The agent sandbox on Linux runs `apply-seccomp` for the CPU.
 * @type {Record<string, {native: string[], executable: string[]}>}
 */
export const TARGETS = {
  'linux-x64': {
    native: [`${NODE_PTY}/build/Release/pty.node`, `${SECCOMP}/x64/apply-seccomp`],
    executable: [`${SECCOMP}/x64/apply-seccomp`],
  },
  'darwin-x64': {
    native: [`${NODE_PTY}/prebuilds/darwin-x64/pty.node`, `${NODE_PTY}/prebuilds/darwin-x64/spawn-helper`],
    executable: [`${NODE_PTY}/prebuilds/darwin-x64/spawn-helper`],
  },
  'darwin-arm64': {
    native: [`${NODE_PTY}/prebuilds/darwin-arm64/pty.node`, `${NODE_PTY}/prebuilds/darwin-arm64/spawn-helper`],
    executable: [`${NODE_PTY}/prebuilds/darwin-arm64/spawn-helper`],
  },
  universal: { native: [], executable: [] },
};

/** The VSIX file name of `target` at `version`. */
export function vsixName(/** @type {string} */ target, /** @type {string} */ version) {
  return `dsh-bridge-${target}-${version}.vsix`;
}

/**
 * Why `target` cannot be packaged on this machine, or undefined when it can: a native file is
 * missing, or `build/Release/pty.node` (the linux-x64 VSIX's) is this machine's own build, so only
 * Linux x64 has it for Linux x64.
 * @param {string} target
 */
function unavailable(target) {
  if (target === 'linux-x64' && `${process.platform}-${process.arch}` !== target) {
    return `its node-pty is built by npm ci on Linux x64, and this is ${process.platform}-${process.arch}`;
  }
  const missing = (TARGETS[target]?.native ?? []).filter((file) => !fs.existsSync(path.join(ROOT, file)));
  return missing.length > 0 ? `${missing.join(', ')} missing (run npm ci)` : undefined;
}

/**
 * Packages `target` into `outFile` with vsce: the shared allowlist plus the target's native files
 * (executables made executable first: node-pty 1.1.0's npm package ships `spawn-helper` as 0644,
 * and vsce keeps each file's mode, which VS Code applies when it installs the VSIX).
 * @param {string} target
 * @param {string} outFile
 */
function packageTarget(target, outFile) {
  const spec = TARGETS[target];
  if (!spec) throw new Error(`unknown target ${target}; valid: ${Object.keys(TARGETS).join(', ')}`);
  for (const file of spec.executable) {
    const full = path.join(ROOT, file);
    if ((fs.statSync(full).mode & 0o111) !== 0o111) fs.chmodSync(full, 0o755);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-package-'));
  try {
    const ignoreFile = path.join(tmp, '.vscodeignore');
    const shared = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    fs.writeFileSync(
      ignoreFile,
      `${shared}\n# ${target}'s native files (scripts/package.mjs)\n${spec.native.map((f) => `!${f}`).join('\n')}\n`,
    );
    const targetArgs = target === 'universal' ? [] : ['--target', target];
    // Relative links in the README become https://github.com/<repository>/blob/main/… on the page.
    run('npx', ['vsce', 'package', ...targetArgs, '--ignoreFile', ignoreFile, '--githubBranch', 'main', '-o', outFile]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The target of this machine's own platform, if one is packaged here. */
function hostTarget() {
  const own = `${process.platform}-${process.arch}`;
  return own in TARGETS ? own : 'universal';
}

const argv = process.argv.slice(2);
const outArg = argv.indexOf('--out-dir');
const outDir = outArg >= 0 ? path.resolve(argv[outArg + 1] ?? '') : path.join(ROOT, 'dist');
const asked = argv.flatMap((a, i) => (argv[i - 1] === '--target' ? [a === 'host' ? hostTarget() : a] : []));
for (const t of asked) if (!(t in TARGETS)) throw new Error(`--target ${t}: valid targets are ${Object.keys(TARGETS).join(', ')}`);
const targets = asked.length > 0 ? asked : Object.keys(TARGETS);
const version = /** @type {{version: string}} */ (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).version;

if (!argv.includes('--no-build')) run('node', ['esbuild.mjs', '--production']);
fs.mkdirSync(outDir, { recursive: true });
const written = [];
for (const target of targets) {
  const why = unavailable(target);
  if (why) {
    if (asked.includes(target)) throw new Error(`package: cannot package ${target}: ${why}`);
    console.error(`package: ${target} skipped: ${why}`);
    continue;
  }
  const outFile = path.join(outDir, vsixName(target, version));
  packageTarget(target, outFile);
  written.push(outFile);
}
if (outArg < 0) {
  const own = path.join(outDir, vsixName(hostTarget(), version));
  if (fs.existsSync(own) && written.includes(own)) fs.copyFileSync(own, VSIX);
  else fs.rmSync(VSIX, { force: true });
}
console.error(
  `package: wrote ${written.map((f) => path.relative(ROOT, f)).join(', ')}${outArg < 0 && fs.existsSync(VSIX) ? `; ${path.relative(ROOT, VSIX)} is ${hostTarget()}'s` : ''}`,
);
