/**
 * The command line a look at a session's processes reports (src/proc/ownedProcesses.ts), on a
 * real process and the real /proc: one found empty is not kept for the process's life.
 *
 * During exec(2) the kernel gives the process its new name (`comm`) before the new program's
 * arguments are in place: a look in between reads an empty `/proc/<pid>/cmdline` and names the
 * process by `comm` alone (`python3` for `python3 -m http.server 8000`). On an idle 2-core machine
 * that lasts microseconds: a reader polling `stat` and `cmdline` back to back saw it in about half
 * of 150 execs, each time for one read only, and looks (whose command line read goes through the
 * thread pool after the `stat` read) hit it in none of some 600; a loaded machine holds it longer.
 * So the test makes the same state last: a process that writes NULs over its own arguments (as a
 * program that sets its own title may; their place is fields 48 and 49 of its stat), is looked
 * at, and puts them back, with the same pid, start time and `comm` throughout.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OwnedProcesses } from '../../../src/proc/ownedProcesses';
import { probeAvailable, procArgs } from '../../../src/proc/procProbe';
import { readStat } from '../../../src/proc/stat';
import { until } from '../../helpers/wait';

/** Blanks its arguments, puts them back, blanks them again: one step per line read, each announced on stdout. */
const PROGRAM = `import ctypes, sys
fields = open('/proc/self/stat').read().rsplit(')', 1)[1].split()
start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end
args = ctypes.string_at(start, end - start)
def step(word):
    print(word, flush=True)
    sys.stdin.readline()
ctypes.memset(start, 0, end - start)
step('blank')
ctypes.memmove(start, args, len(args))
step('restored')
ctypes.memset(start, 0, end - start)
step('blank again')
`;

(probeAvailable() ? describe : describe.skip)('the command line of a session’s process (Linux /proc)', function () {
  this.timeout(20_000);

  it('a command line found empty is read again at the next look, and one read is kept', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-cmdline-'));
    fs.writeFileSync(path.join(tmp, 'server.py'), PROGRAM);
    const child = spawn('python3', ['server.py', '--port', '8000'], { cwd: tmp, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const next = async (word: string) => {
        child.stdin.write('\n');
        await until(word, () => out.split('\n').includes(word));
      };
      await until('blank', () => out.split('\n').includes('blank'));
      const stat = readStat(child.pid!)!;
      const owned = new OwnedProcesses(child.pid!, stat.startTime, `DSH_SESSION=cmdline-${process.pid}`);
      const command = async () => (await owned.look()).processes.find((p) => p.pid === child.pid)?.command;

      assert.ok(!procArgs(child.pid!), 'the process’s command line is empty');
      assert.equal(await command(), stat.comm, 'an empty command line: the process is named by comm');

      await next('restored');
      const args = procArgs(child.pid!);
      assert.ok(args?.endsWith(' server.py --port 8000'), args);
      assert.equal(readStat(child.pid!)?.comm, stat.comm, 'the same name');
      assert.equal(await command(), args, 'read again: the whole command line');

      await next('blank again');
      assert.equal(await command(), args, 'a command line read is kept');
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
