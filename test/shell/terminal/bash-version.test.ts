/**
 * bash before 4.4 (macOS's /bin/bash 3.2) is refused with a clear message: the version check the
 * controlled rc runs first, run by the real bash with the versions it would see there, and the
 * error the open then gives from the progress file it wrote.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bashVersionCheck } from '../../../src/terminal/session/startupRc';
import { shellQuote } from '../../../src/common/shellQuote';
import { StartupWatch, createStartupDir } from '../../../src/terminal/session/sessionStartup';

describe('bash older than 4.4 (macOS /bin/bash 3.2)', () => {
  const run = (major: string, minor: string, version: string, progress: string) =>
    spawnSync(
      'bash',
      ['--norc', '-c', `${bashVersionCheck(shellQuote(progress))}\n__dsh_old ${major} ${minor} ${shellQuote(version)}\necho went-on`],
      { encoding: 'utf8' },
    );

  it('3.2 and 4.3 stop before any startup file with a line naming the version; 4.4 and 5.2 go on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-test-'));
    try {
      const progress = path.join(dir, 'startup');
      for (const [major, minor, version] of [
        ['3', '2', '3.2.57(1)-release'],
        ['4', '3', '4.3.48(1)-release'],
      ]) {
        const r = run(major!, minor!, version!, progress);
        assert.equal(r.status, 98);
        assert.doesNotMatch(r.stdout, /went-on/);
      }
      assert.equal(fs.readFileSync(progress, 'utf8'), 'shell-too-old 3.2.57(1)-release\nshell-too-old 4.3.48(1)-release\n');
      for (const [major, minor] of [
        ['4', '4'],
        ['5', '2'],
      ])
        assert.match(run(major!, minor!, 'x', progress).stdout, /went-on/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the open fails with the version and what to do instead', async () => {
    const startup = createStartupDir();
    try {
      const r = spawnSync('bash', ['--norc', '-c', `${bashVersionCheck(shellQuote(startup.progressFile))}\n__dsh_old 3 2 3.2.57`]);
      assert.equal(r.status, 98);
      const error = new StartupWatch(startup, process.pid, true).tooOldError();
      assert.equal(error?.code, 'SPAWN_FAILED');
      assert.match(error?.message ?? '', /bash 3\.2\.57 is older than 4\.4.*zsh.*brew install bash/);
    } finally {
      await startup.remove();
    }
  });
});
