/**
 * A program's question is in the answer: when a send returns `program-input`, its text ends with
 * what the program printed last before it blocked reading, also when both cores are busy (busy
 * loops started here, ended after each test). Real node-pty, real bash, real python3.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Harness, harness } from '../../helpers/terminalHarness';

/** Sends of each kind; each one must end with the question. */
const ROUNDS = 20;
/** The interpreter itself, not a version manager's shim script in front of it: each round starts it. */
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

describe('a program waiting for input: its question is in the answer (pty-bash, both cores busy)', function () {
  // Generous: with both cores busy, on a machine that is loaded already, a round took 10 s.
  this.timeout(900_000);
  let h: Harness;
  let id: string;
  let load: ChildProcess[] = [];
  const send = (input: string) => h.service.send(h.owner, id, { input, timeoutMs: 30_000 });

  beforeEach(async () => {
    // One busy loop per core, for the whole test.
    load = Array.from({ length: os.availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    h = harness({ quietThresholdMs: 20_000 });
    id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
  });
  afterEach(async () => {
    for (const child of load) child.kill('SIGKILL');
    load = [];
    await h.dispose();
  });

  /** Runs `command` ROUNDS times; each answer must end with `question`; `reply` brings the shell back. */
  async function everyAnswerEndsWith(command: string, question: string, reply: string): Promise<void> {
    const misses: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const r = await send(command);
      assert.equal(r.waitReason, 'stdin_read', `round ${i}: ${JSON.stringify({ ...r, output: r.output.slice(-200) })}`);
      assert.equal(r.waiting, 'program-input', `round ${i}`);
      if (!r.output.endsWith(question)) misses.push(`round ${i}: …${JSON.stringify(r.output.slice(-80))}`);
      const back = await send(reply);
      assert.equal(back.waiting, 'shell-prompt', `round ${i}: the reply ${JSON.stringify(reply)} did not bring the prompt back`);
    }
    assert.deepEqual(
      misses,
      [],
      `${misses.length} of ${ROUNDS} answers did not end with ${JSON.stringify(question)}:\n${misses.join('\n')}`,
    );
  }

  it('a script printing 300 rows, then input(): every answer ends with the rows and "Name: "', async () => {
    fs.writeFileSync(
      path.join(h.tmp, 'rows.py'),
      "for i in range(300):\n    print(f'row {i:03d} ' + 'x' * 60)\nname = input('Name: ')\nprint('hi', name)\n",
    );
    await everyAnswerEndsWith(`${PYTHON} rows.py`, 'row 299 ' + 'x'.repeat(60) + '\nName: ', 'Bob');
  });

  it('python3 -m pdb: every answer ends with "(Pdb) "', async () => {
    fs.writeFileSync(path.join(h.tmp, 'debugged.py'), "x = 1\nprint('x is', x)\n");
    await everyAnswerEndsWith(`${PYTHON} -m pdb debugged.py`, '(Pdb) ', 'q');
  });
});
