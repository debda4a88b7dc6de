/**
 * scripts/install-host.sh on a machine that has none of its Debian packages: which packages it asks
 * apt-get for. The script runs for real under bash; only the system's package tools are stand-ins
 * on PATH (`dpkg-query` says nothing is installed, `apt-get` records its arguments and refuses the
 * install, which stops the script before it downloads anything), so the machine is left untouched.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runProgram } from '../helpers/runProgram';

const SCRIPT = path.resolve(__dirname, '../../scripts/install-host.sh');

describe('scripts/install-host.sh on a fresh Debian machine', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-install-host-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const log = () => path.join(tmp, 'apt-get.log');

  /** Runs the script as user `uid` with the stand-ins on PATH. */
  function runScript(uid: number) {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    const stub = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    stub('dpkg-query', 'exit 1');
    stub('id', `echo ${uid}`);
    stub('apt-get', `echo "$*" >> ${JSON.stringify(log())}\n[ "$1" = update ] && exit 0\nexit 100`);
    return runProgram('bash', [SCRIPT], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: tmp,
      DSH_CACHE_DIR: path.join(tmp, 'cache'),
    });
  }

  /** Runs the script as root (as the README's quick start does); returns the packages it passed to `apt-get install`. */
  async function requestedPackages(): Promise<string[]> {
    const r = await runScript(0);
    assert.notEqual(r.code, 0, 'the refused apt-get install stops the script');
    assert.ok(!fs.existsSync(path.join(tmp, 'cache')), 'nothing was installed into the cache');
    const install = fs
      .readFileSync(log(), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('install '));
    assert.ok(install, `apt-get install was called: ${fs.readFileSync(log(), 'utf8')}`);
    return install.split(/\s+/).filter((w) => w && !w.startsWith('-') && w !== 'install');
  }

  it('asks for the C++ compiler and make that node-gyp needs for node-pty (npm ci) and code-server', async () => {
    const packages = await requestedPackages();
    for (const p of ['g++', 'make', 'python3', 'pkg-config']) assert.ok(packages.includes(p), `${p} in ${packages.join(' ')}`);
  });

  it('asks for the programs the demo and the tests run: Chromium, tmux, vim, git, ripgrep', async () => {
    const packages = await requestedPackages();
    for (const p of ['chromium', 'tmux', 'vim-nox', 'git', 'ripgrep']) assert.ok(packages.includes(p), `${p} in ${packages.join(' ')}`);
  });

  it('asks for bubblewrap and socat, which sessions in the agent sandbox need', async () => {
    const packages = await requestedPackages();
    for (const p of ['bubblewrap', 'socat']) assert.ok(packages.includes(p), `${p} in ${packages.join(' ')}`);
  });

  it('as another user it stops before apt-get, naming the packages and the command that installs them', async () => {
    const r = await runScript(1000);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /missing Debian packages: g\+\+ make .*chromium.*; run this script as root, or install them first: sudo apt-get install g\+\+ make /,
    );
    assert.ok(!fs.existsSync(log()), 'apt-get was not run');
  });
});
