/**
 * Attacks on the traps report (markers.ts controlledPromptRc / runningTraps): a trap that moves a
 * command (`trap 'cd /' USR1`) set by an earlier, hostile command must not leave a confirmation
 * saying the shell has no trap. Real node-pty, real bash.
 *
 * What the report cannot hold against, being the shell's own word (README, "What asks first"): a
 * DEBUG trap under `shopt -s extdebug` that skips the report's `trap -p`, PROMPT_COMMAND entries
 * that clear a trap before the report and set it again after, and code that writes the report
 * itself (its path is in PROMPT_COMMAND). Functions named `builtin` or `trap` are held against
 * where bash runs the report's `trap -p` in POSIX mode (markers.ts controlledPromptRc).
 */
import * as assert from 'node:assert/strict';
import { confirmedIdentity } from '../../../../src/terminal/service';
import { Harness, harness } from '../../../helpers/terminalHarness';

describe('traps report: a trap that moves the command is never reported as none', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (input: string) => h.service.send(h.owner, id, { input });

  beforeEach(async () => {
    h = harness({ quietThresholdMs: 15_000 });
    id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
  });
  afterEach(async () => h.dispose());

  /** Runs `hide`, then what the confirmation says of traps and whether a USR1 trap moves a command to `/`. */
  async function afterHide(hide: string): Promise<{ kind: string | undefined; moved: boolean }> {
    await send(hide);
    const place = confirmedIdentity(h.service.sendTarget(h.owner, id)).place;
    const moved = (await send('kill -USR1 $$; sleep 0.2; pwd')).output.trim() === '/';
    return { kind: place?.traps.kind, moved };
  }

  /** After `hide` ran, the confirmation must not say "no trap"; and the trap does move a command. */
  async function assertSeen(hide: string): Promise<void> {
    const { kind, moved } = await afterHide(hide);
    assert.ok(moved, 'the hidden trap does move the command (the attack is real)');
    assert.notEqual(kind, 'none', `reported no trap after: ${hide}`);
  }

  /**
   * After `hide` ran (code that clears a trap before the report and would set it again after),
   * the confirmation may say "no trap" only if no trap moves the command.
   */
  async function assertNotHidden(hide: string): Promise<void> {
    const { kind, moved } = await afterHide(hide);
    if (moved) assert.notEqual(kind, 'none', `reported no trap after: ${hide}`);
  }

  it('an EXIT trap padded so the report ends at the 16 KiB read limit does not hide the signal trap after it', async () => {
    // The report is "<seq>\n" ("2\n" here) then trap -p, EXIT first: pad EXIT so the 16 KiB read
    // ends right after its entry (one byte less, cutting its newline, does the same).
    const pad = 16 * 1024 - '2\n'.length - "trap -- '' EXIT\n".length;
    await assertSeen(`trap "$(printf '%${pad}s' '')" EXIT; trap 'cd /' USR1`);
  });

  it('a shell function named trap does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; trap() { if [ "$1" = -p ]; then return 0; fi; builtin trap "$@"; }`);
  });

  it('a shell function named builtin that answers trap -p with nothing does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; builtin() { if [ "$1" = trap ]; then return 0; fi; command builtin "$@"; }`);
  });

  it('a function named trap with the trap builtin disabled (enable -n) does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; trap() { if [ "$1" = -p ]; then return 0; fi; command trap "$@"; }; enable -n trap`);
  });

  it('POSIXLY_CORRECT made read-only does not silence the report', async () => {
    await assertSeen(
      `trap 'cd /' USR1; builtin() { if [ "$1" = trap ]; then return 0; fi; command builtin "$@"; }; readonly POSIXLY_CORRECT`,
    );
  });

  it('a program named trap on PATH with the trap builtin disabled (enable -n) does not silence the report', async () => {
    await assertSeen(
      `mkdir -p bin && printf '#!/bin/sh\\nexit 0\\n' > bin/trap && chmod +x bin/trap; PATH="$PWD/bin:$PATH"; trap 'cd /' USR1; enable -n trap`,
    );
  });

  it('an alias named trap does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; alias trap=:`);
  });

  it('enable -n trap does not silence the report (it reads as set)', async () => {
    await assertSeen(`trap 'cd /' USR1; enable -n trap`);
  });

  it("the report's own variables made read-only do not silence it", async () => {
    await assertSeen(`trap 'cd /' USR1; readonly __dsh_sb=y`);
  });

  it('the saved-options variable made read-only does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; readonly __dsh_bo`);
  });

  it("an integer attribute on the report's proof variable does not pass a disabled trap builtin for the real one", async () => {
    await assertSeen(`trap 'cd /' USR1; declare -i __dsh_sb; enable -n trap`);
  });

  it("the report's proof variable made a name reference to a variable never empty does not pass a disabled trap builtin for the real one", async () => {
    await assertSeen(`trap 'cd /' USR1; declare -n __dsh_sb=RANDOM; enable -n trap`);
  });

  it("the prompt's option functions redefined to clear a trap before the report and set it again after do not hide it", async () => {
    await assertNotHidden(`trap 'cd /' USR1; __dsh_optsave() { trap - USR1; }; __dsh_opts() { trap 'cd /' USR1; }`);
  });

  it("aliases named as the prompt's option functions that clear a trap before the report and set it again after do not hide it", async () => {
    await assertNotHidden(`trap 'cd /' USR1; alias __dsh_optsave='trap - USR1' __dsh_opts='trap "cd /" USR1'`);
  });

  it('a function named builtin that clears a trap before the report and sets it again after does not hide it', async () => {
    await assertNotHidden(
      `trap 'cd /' USR1; builtin() { case $1 in printf) command builtin trap - USR1 ;; unset) command builtin trap 'cd /' USR1 ;; esac; command builtin "$@"; }`,
    );
  });

  it('a function named set, its builtin disabled, that would set a trap again after the report does not hide it', async () => {
    await assertNotHidden(
      `trap 'cd /' USR1; set() { command builtin trap 'cd /' USR1; }; builtin() { if [ "$1" = set ]; then POSIXLY_CORRECT=y; command builtin trap - USR1; return 0; fi; command builtin "$@"; }; enable -n set`,
    );
  });

  it('a function named unset, its builtin disabled, that would set a trap again after the report does not hide it', async () => {
    await assertNotHidden(
      `trap 'cd /' USR1; unset() { command builtin trap 'cd /' USR1; }; builtin() { if [ "$1" = printf ]; then command builtin trap - USR1; fi; command builtin "$@"; }; enable -n unset`,
    );
  });

  it('a function named trap that sets the proof variable itself, with trap and export disabled, does not silence the report', async () => {
    await assertSeen(`trap 'cd /' USR1; trap() { declare -g __dsh_sb=y; }; enable -n trap export`);
  });

  it('a report replaced by a pipe nobody writes never blocks this thread: the traps read as unknown', async () => {
    // The report's path is in PROMPT_COMMAND (an array from bash 5.1). With the report dropped from
    // PROMPT_COMMAND, the pipe has no writer: a blocking open of it for reading waits until one
    // comes (here a program that opens it after about 3 s).
    await send(
      `p=$(builtin printf '%s\\n' "\${PROMPT_COMMAND[@]}" | grep -o "/[^']*/traps" | head -n 1); PROMPT_COMMAND=(__dsh_prompt); rm -f "$p" && mkfifo "$p" && { (sleep 3; : > "$p") >/dev/null 2>&1 & }`,
    );
    const started = performance.now();
    const target = h.service.sendTarget(h.owner, id);
    const took = performance.now() - started;
    assert.ok(took < 500, `reading the traps held this thread for ${took.toFixed(0)} ms`);
    assert.deepEqual(target.traps, { kind: 'unknown' });
  });
});
