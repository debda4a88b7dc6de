// Rebuilds node-pty's native module from its patched source (patches/node-pty+*.patch, applied by
// patch-package just before this runs in `postinstall`), then checks the patch is in force.
//
// The patch makes node-pty set close-on-exec (FD_CLOEXEC) on every PTY master it opens and close
// inherited descriptors in the forked child before exec: without it, every session and every
// process the host spawns later (a language server, another extension's child) holds the PTY
// master of every earlier session and can type into it.
//
// node-gyp is the one npm runs install scripts with (on PATH inside npm scripts; otherwise
// npm_config_node_gyp). On Linux the result is verified by opening a PTY and reading the master's
// flags in /proc/self/fdinfo (O_CLOEXEC is 02000000 octal, see open(2)); a failure fails the
// install. Where node-pty ships a prebuilt binary for the platform (macOS) and the build fails,
// the unpatched prebuilt is left in place with a warning: the session rc and the language server
// watchdog still close inherited descriptors (see src/terminal/readiness/markers.ts, src/lsp/stdio/watchdog.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const ptyDir = path.dirname(require.resolve('node-pty/package.json'));
const prebuilt = fs.existsSync(path.join(ptyDir, 'prebuilds', `${process.platform}-${process.arch}`));

/** Runs node-gyp with `args` in node-pty's folder; returns its exit status. */
/** @param {string[]} args */
function nodeGyp(args) {
  const viaPath = spawnSync('node-gyp', args, { cwd: ptyDir, stdio: 'inherit' });
  if (!viaPath.error) return viaPath.status;
  const script = process.env.npm_config_node_gyp;
  if (!script) throw new Error('node-gyp is not on PATH and npm_config_node_gyp is not set; run this through npm (npm ci / npm rebuild)');
  return spawnSync(process.execPath, [script, ...args], { cwd: ptyDir, stdio: 'inherit' }).status;
}

const status = nodeGyp(['rebuild']);
if (status !== 0) {
  if (prebuilt && process.platform !== 'linux') {
    console.warn(
      `build-node-pty: node-gyp rebuild failed (status ${status}); the unpatched prebuilt node-pty for ${process.platform}-${process.arch} stays in use`,
    );
    process.exit(0);
  }
  console.error(`build-node-pty: node-gyp rebuild of ${ptyDir} failed (status ${status})`);
  process.exit(1);
}

if (process.platform === 'linux') {
  const check = `
    const pty = require(${JSON.stringify(ptyDir)});
    const fs = require('fs');
    const term = pty.spawn('/bin/sh', ['-c', 'exit 0'], {});
    const flags = parseInt(/^flags:\\s*(\\d+)/m.exec(fs.readFileSync('/proc/self/fdinfo/' + term.fd, 'utf8'))[1], 8);
    console.log((flags & 0o2000000) ? 'cloexec' : 'inherited');
    term.kill();
    process.exit(0);
  `;
  const answer = execFileSync(process.execPath, ['-e', check], { encoding: 'utf8' }).trim();
  if (answer !== 'cloexec') {
    console.error(
      `build-node-pty: the rebuilt node-pty does not set close-on-exec on its PTY master (${answer}); is patches/node-pty+*.patch applied?`,
    );
    process.exit(1);
  }
  console.log('build-node-pty: node-pty rebuilt; PTY masters are close-on-exec');
}
