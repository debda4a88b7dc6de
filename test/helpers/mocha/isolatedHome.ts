/**
 * Loaded by .mocharc.json before any test: points HOME at a fresh folder with empty bash startup
 * files, so the sessions the unit tests open run a real bash that reads none of this machine's
 * own startup files (a slow or broken `~/.bashrc`, such as a plugin manager waiting on a stale lock,
 * would otherwise decide every test's timing). Tests that need a user startup file give a HOME of
 * their own (`homeWithRc`). The folder is removed when the test process exits.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-test-home-'));
for (const file of ['.bashrc', '.bash_profile', '.profile']) fs.writeFileSync(path.join(home, file), '');
process.env.HOME = home;
process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
