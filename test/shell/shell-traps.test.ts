import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readShellTraps, runningTraps } from '../../src/terminal/readiness/shellTraps';

/** What real bash's `trap -p` prints after `setup`. */
function trapsPrinted(setup: string): string {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `${setup}\ntrap -p`], { encoding: 'utf8' });
}

describe('runningTraps: the traps that may run while a command does, from bash trap -p', () => {
  it('keeps DEBUG, ERR, RETURN and signal traps, quotes and newlines included; drops EXIT and ignored signals', () => {
    const printed = trapsPrinted(`trap 'true bye' EXIT; trap '' USR2; trap 'cd /tmp' USR1; trap $'a=\\'x\\'\\ncd /' ERR; trap ':' DEBUG; trap 'cd -' RETURN`);
    const kept = runningTraps(printed);
    assert.equal(kept, ["trap -- 'cd /tmp' SIGUSR1", "trap -- ':' DEBUG", "trap -- 'a='\\''x'\\''\ncd /' ERR", "trap -- 'cd -' RETURN"].join('\n'));
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
