/**
 * A process's command line is named to the agent cut to 200 characters (src/proc/commandLine.ts)
 * and redacted after: a secret the cut crosses must not reach the agent in part. Real processes
 * whose command line holds a token at every position around the cut.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { commandLine, commandLineAsync } from '../../../src/proc/commandLine';
import { redactShortText } from '../../../src/terminal/secrets/secretRedactor';
import { until } from '../../helpers/wait';

/** A made-up GitHub token of the real shape (ghp_ and 36 characters). */
const TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;

describe("a process's command line cut to its bound holds no piece of a secret", function () {
  this.timeout(60_000);
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('a token before, across or after the 200th character is whole and redacted, or left out', async () => {
    // `sh -c 'sleep 60; :' <name> <pad> <token>` (the `:` keeps a shell that runs a last command
    // with exec, as bash does, from becoming `sleep`): the command line is "sh -c sleep 60; : name " (23
    // characters), the pad, a space, then the token.
    for (let pad = 130; pad <= 185; pad += 1) {
      const child = spawn('sh', ['-c', 'sleep 60; :', 'name', 'x'.repeat(pad), `--token=${TOKEN}`, 'tail'], { stdio: 'ignore' });
      children.push(child);
      const pid = child.pid!;
      await until('the command line to be set', () => commandLine(pid).startsWith('sh -c sleep 60; : '));
      for (const line of [commandLine(pid), await commandLineAsync(pid)]) {
        const shown = redactShortText(line);
        assert.ok(line.length <= 200, `${line.length} characters`);
        for (let at = 0; at + 8 <= TOKEN.length; at++)
          assert.ok(!shown.includes(TOKEN.slice(at, at + 8)), `pad ${pad}: ${JSON.stringify(shown.slice(-60))}`);
      }
      child.kill('SIGKILL');
    }
  });
});
