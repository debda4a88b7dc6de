// What bash trap -p reports and how a session reads it: the traps that may run while a command does, and those the person's startup files set.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readShellTraps, runningTraps } from '../../../../src/terminal/readiness/shellTraps';
import { Harness, harness } from '../../../helpers/terminalHarness';

/** What real bash's `trap -p` prints after `setup`. */
function trapsPrinted(setup: string): string {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `${setup}\ntrap -p`], { encoding: 'utf8' });
}

describe('runningTraps: the traps that may run while a command does, from bash trap -p', () => {
  it('keeps DEBUG, ERR, RETURN and signal traps, quotes and newlines included; drops EXIT and ignored signals', () => {
    const printed = trapsPrinted(
      `trap 'true bye' EXIT; trap '' USR2; trap 'cd /tmp' USR1; trap $'a=\\'x\\'\\ncd /' ERR; trap ':' DEBUG; trap 'cd -' RETURN`,
    );
    const kept = runningTraps(printed);
    assert.equal(
      kept,
      ["trap -- 'cd /tmp' SIGUSR1", "trap -- ':' DEBUG", "trap -- 'a='\\''x'\\''\ncd /' ERR", "trap -- 'cd -' RETURN"].join('\n'),
    );
  });

  it('POSIX mode, which lists every signal (bash 5.2): the defaults are dropped, the set ones kept', () => {
    const printed = trapsPrinted(`trap 'true bye' EXIT; trap '' USR2; trap 'cd /tmp' USR1; trap ':' DEBUG; POSIXLY_CORRECT=y`);
    assert.equal(runningTraps(printed), ["trap -- 'cd /tmp' USR1", "trap -- ':' DEBUG"].join('\n'));
  });

  it('none set, or only EXIT and ignored ones: nothing', () => {
    assert.equal(runningTraps(trapsPrinted('')), '');
    assert.equal(runningTraps(trapsPrinted(`trap 'true' EXIT; trap '' INT`)), '');
  });

  it('text that does not read as trap -p entries counts as set, whole', () => {
    assert.equal(runningTraps("trap -- 'x' EXIT\nsomething else"), 'something else');
  });

  it('readShellTraps takes the report of the prompt before this one only', () => {
    assert.deepEqual(readShellTraps("4\ntrap -- 'cd /' SIGUSR1\n", 5), { kind: 'set', text: "trap -- 'cd /' SIGUSR1" });
    assert.deepEqual(readShellTraps("4\ntrap -- 'x' EXIT\n", 5), { kind: 'none' });
    assert.deepEqual(readShellTraps("3\ntrap -- 'cd /' SIGUSR1\n", 5), { kind: 'unknown' });
    assert.deepEqual(readShellTraps(undefined, 5), { kind: 'unknown' });
    // A report cut after a whole entry may hide any trap past the cut.
    assert.equal(readShellTraps("4\ntrap -- 'x' EXIT\n", 5, true).kind, 'set');
  });
});

describe("startup traps: the traps the person's startup files set", function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('a DEBUG trap ~/.bashrc sets is reported as from startup until a command sets, changes or clears a trap', async () => {
    const home = fs.mkdtempSync(path.join(h.tmp, 'home-'));
    fs.writeFileSync(path.join(home, '.bashrc'), `trap ': "$_"' DEBUG\n`);
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp, env: { HOME: home } });
    const target = () => h.service.sendTarget(h.owner, sessionId);
    assert.equal(target().traps?.kind, 'set');
    assert.equal(target().trapsFromStartup, true);
    await h.service.send(h.owner, sessionId, { input: 'echo unchanged' });
    assert.equal(target().trapsFromStartup, true, 'a command that sets no trap leaves them the startup ones');
    await h.service.send(h.owner, sessionId, { input: "trap 'cd /' USR1" });
    assert.equal(target().traps?.kind, 'set');
    assert.equal(target().trapsFromStartup, undefined, 'a trap a command set');
    await h.service.send(h.owner, sessionId, { input: "trap - USR1; trap 'cd /' DEBUG" });
    assert.equal(target().trapsFromStartup, undefined, 'the startup trap changed');
  });

  it('a session whose startup files set no trap has none from startup', async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, sessionId, { input: "trap 'cd /' DEBUG" });
    assert.equal(h.service.sendTarget(h.owner, sessionId).trapsFromStartup, undefined);
  });
});
