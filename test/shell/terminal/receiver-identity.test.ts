/**
 * The receiver as the kernel identifies it, on real processes: a program renaming itself is
 * named by its executable, the exact process confirmed is the one that reads (not another of its
 * group), and a shell replaced by a stand-in that calls itself bash and prints prompt markers is
 * not "bash at its prompt".
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../../../src/terminal/errors';
import { confirmedIdentity } from '../../../src/terminal/service';
import { sendConfirmationText } from '../../../src/vscode/tools/terminal/confirmation';
import { Harness, harness } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';

const code = (c: string) => (e: unknown) => e instanceof TerminalError && e.code === c;

describe('the receiver as the kernel identifies it (real processes)', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('names a program by the executable the kernel runs when its command line says otherwise: perl calling itself `sudo -v`', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    const r = await h.service.send(h.owner, id, { input: `perl -e '$0 = "sudo -v"; my $l = <STDIN>;'`, timeoutMs: 10_000 });
    assert.equal(r.waiting, 'program-input');
    const target = h.service.sendTarget(h.owner, id);
    assert.equal(target.receiver.kind, 'program');
    const text = sendConfirmationText({ kind: 'text', text: 'yes' }, h.service.info(h.owner, id), target);
    assert.match(text, /\*\*perl\*\* \(`\/usr\/bin\/perl[^`]*`\), calling itself `sudo -v` \(pid \d+\)/);
  });

  it('refuses a send confirmed for one process when another process of the same group would read it', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    // One script, one process group: the first reader gives up after 2 s, the second reads next.
    const script = `bash -c 'python3 -c "import signal; signal.alarm(2); input()" 2>/dev/null; python3 -c "input(); print(\\"second read it\\")"'`;
    const r = await h.service.send(h.owner, id, { input: script, timeoutMs: 10_000 });
    assert.equal(r.waiting, 'program-input');
    const confirmed = h.service.sendTarget(h.owner, id);
    assert.equal(confirmed.receiver.kind, 'program');
    const first = confirmed.receiver.kind === 'program' ? confirmed.receiver.process.pid : 0;
    await until(
      'the second reader to read',
      () => {
        const now = h.service.sendTarget(h.owner, id).receiver;
        return now.kind === 'program' && now.reading === true && now.process.pid !== first;
      },
      15_000,
    );
    await assert.rejects(
      h.service.send(h.owner, id, { input: 'yes', expectReceiver: confirmedIdentity(confirmed), timeoutMs: 5000 }),
      (e: Error) => code('RECEIVER_CHANGED')(e) && new RegExp(`pid ${first}`).test(e.message),
    );
    assert.doesNotMatch((await h.service.readAsync(h.owner, id, {})).text, /^second read it$/m);
  });

  it('a shell replaced by a stand-in that calls itself bash and prints prompt markers is not "bash at its prompt"', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    const standIn = path.join(h.tmp, 'standin.py');
    fs.writeFileSync(
      standIn,
      [
        'import sys',
        "open('/proc/self/comm', 'w').write('bash')",
        'nonce, seq = sys.argv[1], int(sys.argv[2]) + 5',
        'def prompt():',
        '    global seq',
        '    seq += 1',
        "    sys.stdout.write('\\x1b]6973;%s;P;0;%d;n\\x07$ ' % (nonce, seq))",
        '    sys.stdout.flush()',
        'prompt()',
        'for line in sys.stdin:',
        "    sys.stdout.write('\\x1b]6973;%s;S;%d\\x07' % (nonce, seq))",
        "    open(sys.argv[3], 'a').write(line)",
        '    prompt()',
      ].join('\n'),
    );
    const seen = path.join(h.tmp, 'seen');
    const before = confirmedIdentity(h.service.sendTarget(h.owner, id));
    await h.service.send(h.owner, id, { input: `exec python3 ${standIn} "\${__dsh_n[0]}" "$__dsh_seq" ${seen}`, timeoutMs: 5000 });
    const target = h.service.sendTarget(h.owner, id);
    assert.equal(target.receiver.kind, 'program', JSON.stringify(target.receiver));
    const text = sendConfirmationText({ kind: 'text', text: 'ls' }, h.service.info(h.owner, id), target);
    // Named by its command line and executable, not by the `bash` it wrote into its comm.
    assert.match(
      text,
      /Receiver: `[^`]*python3 [^`]*standin\.py[^`]*` \(pid \d+, `[^`]*python3[^`]*`\), \*\*not the shell DSH Bridge started\*\*/,
    );
    // A send confirmed as the shell at its prompt is refused; nothing reaches the stand-in.
    await assert.rejects(h.service.send(h.owner, id, { input: 'ls', expectReceiver: before, timeoutMs: 5000 }), code('RECEIVER_CHANGED'));
    assert.equal(fs.existsSync(seen), false);
    // Confirmed as what it is, the text goes to it, and the result never says the shell's prompt read it.
    const r = await h.service.send(h.owner, id, { input: 'ls', expectReceiver: confirmedIdentity(target), timeoutMs: 5000 });
    assert.notEqual(r.waiting, 'shell-prompt', JSON.stringify(r));
    assert.notEqual(h.service.sendTarget(h.owner, id).receiver.kind, 'shell-prompt');
  });
});
