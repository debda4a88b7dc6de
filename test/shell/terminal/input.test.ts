/**
 * What is typed is what was confirmed, on the real pty-bash backend (real node-pty, real bash):
 * text holds no controls, keys are pressed by name, text at the shell's prompt is a bracketed
 * paste into an emptied line, and a send reports who reads it and where the shell is now.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../../../src/terminal/errors';
import type { SendRequest } from '../../../src/terminal/types';
import { confirmedIdentity } from '../../../src/terminal/service';
import { Harness, firstSession, harness, homeWithRc, sleep } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';

const refused = (code: string, pattern: RegExp) => (e: unknown) => e instanceof TerminalError && e.code === code && pattern.test(e.message);

describe('terminal input: text, keys and receivers (pty-bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (request: SendRequest | string, timeoutMs?: number) =>
    h.service.send(h.owner, id, typeof request === 'string' ? { input: request, timeoutMs } : { timeoutMs, ...request });
  const open = async (options = {}) => (id = (await h.service.open(h.owner, { cwd: h.tmp, ...options })).sessionId);
  /** The raw scrollback, to prove what was (not) typed. */
  const raw = () => h.service.read(h.owner, id, { raw: true }).text;

  beforeEach(() => {
    h = harness({ quietThresholdMs: 15_000 });
  });
  afterEach(async () => h.dispose());

  it('refuses Ctrl-A Ctrl-D hidden after a shell comment, naming U+0001, and types nothing', async () => {
    await open();
    const marker = path.join(h.tmp, 'x');
    await assert.rejects(send(`# touch ${marker}\u0001\u0004`), refused('INVALID_ARGUMENT', /U\+0001.*Ctrl-A.*keys/));
    // Asserts that something does NOT happen: nothing may run in the half second after the refusal.
    await sleep(500);
    assert.equal(fs.existsSync(marker), false, 'the hidden keys ran touch');
    assert.doesNotMatch(raw(), /touch/);
    assert.equal((await send('echo still-clean')).output, 'still-clean');
  });

  it('refuses bidirectional controls, DEL, C1 controls, a lone CR and ESC, naming each code point', async () => {
    await open();
    for (const [text, name] of [
      ['echo "\u202Etxt.exe"', 'U\\+202E'],
      ['echo \u2066a\u2069', 'U\\+2066'],
      ['echo abc\u007f', 'U\\+007F'],
      ['echo \u009b31m', 'U\\+009B'],
      ['echo a\rrm -rf x', 'U\\+000D'],
      ['echo \u001b[A', 'U\\+001B'],
    ] as const) {
      await assert.rejects(send(text), refused('INVALID_ARGUMENT', new RegExp(name)), JSON.stringify(text));
    }
    assert.doesNotMatch(raw(), /txt\.exe|abc|31m|rm -rf/);
  });

  it('a CR LF pair counts as a newline: two commands run', async () => {
    await open();
    const r = await send('echo a\r\necho b\r\n');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'a\nb');
  });

  it('a tab in text is typed as a tab, never completion: the paste is inert to editing keys', async () => {
    await open();
    fs.writeFileSync(path.join(h.tmp, 'xylophone'), '');
    const r = await send("printf '%s' 'x\ty' | od -An -c");
    assert.equal(r.output.replace(/\s+/g, ' ').trim(), 'x \\t y');
  });

  it('a printable key the user bound to a macro in ~/.inputrc is inert inside text', async () => {
    const home = homeWithRc(h.tmp, '');
    fs.writeFileSync(path.join(home, '.inputrc'), `"%": "\\C-a\\C-k touch ${h.tmp}/macro-ran\\n"\n`);
    await open({ env: { HOME: home, INPUTRC: path.join(home, '.inputrc') } });
    const r = await send('echo 100%');
    assert.equal(r.output, '100%');
    assert.equal(fs.existsSync(path.join(h.tmp, 'macro-ran')), false);
  });

  it('history expansion is off: !! is typed and printed, not replaced by the last command', async () => {
    await open();
    await send('echo first');
    assert.equal((await send('echo a!!b')).output, 'a!!b');
  });

  it('Ctrl-D at an empty cat line ends cat (end of input); nothing is appended to keys', async () => {
    await open();
    assert.equal((await send('cat')).waiting, 'program-input');
    const r = await send({ keys: ['Ctrl-D'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0);
  });

  it('Ctrl-C as a key interrupts the program reading: exit 130', async () => {
    await open();
    assert.equal((await send('cat')).waiting, 'program-input');
    const r = await send({ keys: ['Ctrl-C'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 130);
  });

  it('keys edit the readline prompt: characters, Left and Enter run what they typed; Up alone shows a recalled line without running it', async () => {
    await open();
    await send('echo abc');
    const up = await send({ keys: ['Up'] });
    assert.equal(up.waitReason, 'stdin_read');
    assert.match(up.output, /echo abc$/);
    await send({ keys: ['Ctrl-C'] });
    const r = await send({ keys: ['e', 'c', 'h', 'o', 'Space', 'a', 'b', 'c', 'Left', 'X', 'Enter'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'abXc');
  });

  it('at the prompt, keys that would run a line recalled from history, the kill ring or completion are refused and nothing runs', async () => {
    await open();
    const elsewhere = path.join(h.tmp, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const marker = path.join(elsewhere, 'HISTORY-RAN');
    // A command confirmed earlier, in another folder, is on the shell's history and in the kill ring.
    await send(`cd ${elsewhere} && touch HISTORY-RAN && cd ${h.tmp}`);
    fs.rmSync(marker);
    const killed = path.join(elsewhere, 'KILLED-RAN');
    await send({ keys: [...`touch ${killed}`].map((c) => (c === ' ' ? 'Space' : c)).concat('Ctrl-U', 'Ctrl-C') });
    for (const keys of [
      ['Up', 'Up', 'Enter'],
      ['Up', 'Ctrl-M'],
      ['Ctrl-P', 'Ctrl-P', 'Ctrl-J'],
      ['Ctrl-R', 'H', 'I', 'S', 'T', 'Enter'],
      ['Escape', '.', 'Enter'],
      ['Escape', '_', 'Enter'],
      ['Ctrl-Y', 'Enter'],
      ['t', 'o', 'u', 'c', 'h', 'Space', 'H', 'I', 'Tab', 'Enter'],
      ['Up', 'Ctrl-O'],
      ['Ctrl-O'],
      ['l', 's', 'Enter', 'Up'],
    ]) {
      await assert.rejects(send({ keys }), refused('INVALID_ARGUMENT', /nothing was pressed.*prompt.*`?input`?/), JSON.stringify(keys));
    }
    // Asserts that something does NOT happen: nothing may run in the half second after the refusals.
    await sleep(500);
    assert.equal(fs.existsSync(marker), false, 'a recalled line ran');
    assert.equal(fs.existsSync(killed), false, 'the killed line was yanked and ran');
    // Split over two sends: the line Up recalled stays unrun, and Enter is refused naming Up.
    await send({ keys: ['Up'] });
    await assert.rejects(send({ keys: ['Enter'] }), refused('INVALID_ARGUMENT', /nothing was pressed.*"Up".*earlier send.*Ctrl-C/));
    await sleep(500);
    assert.equal(fs.existsSync(marker), false, 'the line recalled by an earlier send ran');
    // Ctrl-C empties the line; harmless keys and plain Enter on an empty line keep working.
    assert.equal((await send({ keys: ['Ctrl-C'] })).waiting, 'shell-prompt');
    assert.equal((await send({ keys: ['Ctrl-L'] })).waitReason, 'stdin_read');
    assert.equal((await send({ keys: ['Enter'] })).waiting, 'shell-prompt');
    assert.equal((await send('echo typed')).output, 'typed');
    assert.equal(fs.existsSync(marker), false);
  });

  it('keys for a program in the foreground are pressed as they are, Up and Enter included', async () => {
    await open();
    assert.equal((await send('od -c')).waiting, 'program-input');
    const r = await send({ keys: ['Up', 'Enter', 'Ctrl-D'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.match(r.output, /033\s+\[\s+A\s+\\n/);
  });

  it('text at the prompt replaces what earlier keys left on the line', async () => {
    await open();
    await send(`echo recalled > ${h.tmp}/recalled`);
    fs.rmSync(path.join(h.tmp, 'recalled'));
    await send({ keys: ['Up'] });
    const r = await send('echo typed');
    assert.equal(r.output, 'typed');
    assert.equal(fs.existsSync(path.join(h.tmp, 'recalled')), false, 'the recalled line ran with the typed text');
  });

  it('cursor keys follow application cursor mode (DECCKM) of the program reading', async () => {
    await open();
    const program = `import os,sys,tty; sys.stdout.write('\\x1b[?1h'+'re'+'ady>'); sys.stdout.flush(); tty.setraw(0); b=os.read(0,3); sys.stdout.write('\\x1b[?1l'); print(); print(repr(b))`;
    const started = await send(`python3 -c "${program}"`);
    assert.equal(started.waiting, 'program-input', JSON.stringify(started));
    // The probe can see the program reading before its output reached us; the mode switch comes
    // with "ready>" (spelled apart in the command, so the echoed command line does not match).
    await until('"ready>" in the raw scrollback', () => /ready>/.test(raw()));
    const r = await send({ keys: ['Up'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.match(r.output, /b'\\x1bOA'/);
  });

  it('cursor key mode and the alternate screen are tracked when their sequence is split across output chunks, combined in one sequence, and reset by ESC c', async () => {
    await open();
    // Each piece is written and flushed apart, with a pause, so that it reaches us in a chunk of its own.
    const cases: { pieces: string[]; application: boolean }[] = [
      { pieces: ['\x1b[?', '1h', '\x1b[?10', '49h'], application: true },
      { pieces: ['\x1b[?1;1049h'], application: true },
      { pieces: ['\x1b[?1049;1h', '\x1b', 'c'], application: false },
    ];
    for (const [i, { pieces, application }] of cases.entries()) {
      const script = path.join(h.tmp, `modes${i}.py`);
      fs.writeFileSync(
        script,
        [
          'import json, os, sys, time, tty',
          `for piece in json.loads(${JSON.stringify(JSON.stringify(pieces))}):`,
          '    sys.stdout.write(piece); sys.stdout.flush(); time.sleep(0.3)',
          "sys.stdout.write('re' + 'ady>'); sys.stdout.flush()",
          'tty.setraw(0)',
          'b = os.read(0, 3)',
          "sys.stdout.write('\\x1b[?1049l\\x1b[?1l\\r\\n' + repr(b) + '\\r\\n'); sys.stdout.flush()",
        ].join('\n'),
      );
      await send(`python3 ${script}`);
      await until('"ready>" in the raw scrollback', () => /ready>/.test(raw()));
      const waiting = await h.service.wait(h.owner, id);
      assert.equal(waiting.waiting, 'program-input', JSON.stringify(waiting));
      assert.equal(waiting.alternateScreen, application ? true : undefined, `alternate screen after ${JSON.stringify(pieces)}`);
      const r = await send({ keys: ['Up'] });
      assert.equal(r.waiting, 'shell-prompt', JSON.stringify(r));
      assert.match(r.output, application ? /b'\\x1bOA'/ : /b'\\x1b\[A'/, `Up after ${JSON.stringify(pieces)}`);
    }
  });

  it('a single printable character key is typed alone, without a newline (read -n 1)', async () => {
    await open();
    assert.equal((await send('read -n 1 -p "Continue? " a; echo; echo "got [$a]"')).waiting, 'program-input');
    const r = await send({ keys: ['y'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.match(r.output, /got \[y\]$/);
  });

  it('keys are validated: unknown names list the valid ones, input and keys together are refused', async () => {
    await open();
    await assert.rejects(
      send({ keys: ['Ctrl-Alt-Del'] }),
      refused('INVALID_ARGUMENT', /not a key; valid names: Enter, Tab,.*Ctrl-A–Ctrl-Z/),
    );
    await assert.rejects(send({ keys: [] }), refused('INVALID_ARGUMENT', /non-empty array/));
    await assert.rejects(send({ input: 'echo a', keys: ['Enter'] }), refused('INVALID_ARGUMENT', /not both/));
    await assert.rejects(h.service.send(h.owner, id, {}), refused('INVALID_ARGUMENT', /input or keys is required/));
    assert.equal((await send({ keys: ['ctrl+c'] })).waiting, 'shell-prompt');
  });

  it('multi-line input with a heredoc and an open quote still behaves as a paste', async () => {
    await open();
    const r = await send(`cat > ${h.tmp}/h.txt << 'EOF'\nline $1 \`x\`\nEOF\ncat ${h.tmp}/h.txt`);
    assert.equal(r.output, 'line $1 `x`');
    const open1 = await send('echo "one');
    assert.equal(open1.waiting, 'shell-continuation');
    const closed = await send('two"');
    assert.equal(closed.waiting, 'shell-prompt');
    assert.equal(closed.output, 'one\ntwo');
  });

  it('with line editing off (set +o emacs) text is typed plainly and still runs', async () => {
    await open();
    await send('set +o emacs');
    const r = await send('echo plain');
    assert.equal(r.output, 'plain');
    assert.doesNotMatch(raw(), /200~/);
  });

  it('a prompt that claims line editing is off while readline reads: text still replaces what keys left on the line', async () => {
    await open();
    // An approved command can make the prompt's marker say line editing is off; the terminal says otherwise.
    await send('readonly __dsh_le=n');
    await send({ keys: [...`touch ${h.tmp}/unshown;`].map((c) => (c === ' ' ? 'Space' : c)) });
    const r = await send('echo typed');
    assert.equal(fs.existsSync(path.join(h.tmp, 'unshown')), false, 'what the keys left on the line ran with the typed text');
    // The prompt's own assignment to the read-only variable complains at every prompt.
    assert.match(r.output, /^typed$/m);
  });

  it('with line editing off, several lines typed in one send return after the last one, not at the first prompt', async () => {
    await open();
    await send('set +o emacs');
    const r = await send('echo first\nsleep 0.5\necho last');
    assert.equal(r.waiting, 'shell-prompt');
    assert.match(r.output, /last$/);
    assert.ok(r.durationMs >= 450, `returned after ${r.durationMs} ms, before sleep 0.5 ended`);
  });

  it('with line editing really off and ICANON left off at the prompt (stty -icanon), text runs as typed: no paste brackets typed literally', async () => {
    await open();
    fs.mkdirSync(path.join(h.tmp, 'sub'));
    await send('set +o emacs');
    // A program that crashed in raw mode, or the user, leaves ICANON off; without readline nothing restores it.
    await send('stty -icanon');
    const r = await send(`cd ${h.tmp}/sub\ntouch here\necho end`);
    assert.match(r.output, /end$/);
    assert.doesNotMatch(raw(), /200~/, 'the paste brackets were typed as text');
    assert.equal(fs.existsSync(path.join(h.tmp, 'here')), false, 'the first line failed and the next ran in the wrong folder');
    assert.equal(fs.existsSync(path.join(h.tmp, 'sub', 'here')), true);
  });

  it('in vi mode, text after Escape (command mode) still replaces the line and runs as typed', async () => {
    await open({ env: { HOME: homeWithRc(h.tmp, 'set -o vi\n') } });
    assert.equal((await send('echo one')).output, 'one');
    await send({ keys: ['Up', 'Escape'] });
    assert.equal((await send('echo two')).output, 'two');
    // In vi command mode `k` recalls history: after Escape, a key that runs the line is refused.
    const before = raw();
    await assert.rejects(send({ keys: ['Escape', 'k', 'Enter'] }), refused('INVALID_ARGUMENT', /nothing was pressed.*"Escape"/));
    await sleep(300);
    assert.equal(raw(), before, 'something was pressed');
  });

  it('sendTarget: the shell at its prompt with its current folder, read at the call', async () => {
    await open();
    fs.mkdirSync(path.join(h.tmp, 'sub dir'));
    let target = h.service.sendTarget(h.owner, id);
    assert.equal(target.receiver.kind, 'shell-prompt');
    assert.equal(target.cwd, fs.realpathSync(h.tmp));
    assert.equal(target.cwdIsCurrent, true);
    await send("cd 'sub dir'");
    target = h.service.sendTarget(h.owner, id);
    assert.equal(target.cwd, fs.realpathSync(path.join(h.tmp, 'sub dir')));
    assert.equal(firstSession(h).cwd, h.tmp, 'the info keeps the folder it was opened in');
    await send(`echo "a`);
    assert.equal(h.service.sendTarget(h.owner, id).receiver.kind, 'shell-continuation');
  });

  it('sendTarget: a program waiting in input() is named as the receiver, reading', async () => {
    await open();
    await send(`python3 -c "input('Name: ')"`);
    const { receiver } = h.service.sendTarget(h.owner, id);
    assert.equal(receiver.kind, 'program');
    assert.match(receiver.kind === 'program' ? receiver.process.command : '', /python3 -c/);
    assert.equal(receiver.kind === 'program' && receiver.reading, true);
  });

  it('after a signal, settled() waits for the shell to take the terminal back, so the next confirmation names the shell', async () => {
    await open();
    assert.equal((await send('sleep 300', 500)).waitReason, 'timeout');
    assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
    await h.service.settled(h.owner, id);
    assert.equal(h.service.sendTarget(h.owner, id).receiver.kind, 'shell-prompt');
    const { receiver } = h.service.sendTarget(h.owner, id);
    const expectReceiver = { kind: receiver.kind, processGroup: receiver.kind === 'exited' ? undefined : receiver.process.pid };
    assert.equal((await send({ input: 'echo $?', expectReceiver })).output, '130');
  });

  it('a send whose confirmed receiver changed is refused and nothing is typed', async () => {
    await open();
    const { receiver } = h.service.sendTarget(h.owner, id);
    const expectReceiver = { kind: receiver.kind, processGroup: receiver.kind === 'exited' ? undefined : receiver.process.pid };
    assert.equal((await send('cat')).waiting, 'program-input');
    await assert.rejects(send({ input: 'meant-for-the-shell', expectReceiver }), refused('RECEIVER_CHANGED', /nothing was typed.*`cat`/));
    assert.doesNotMatch(raw(), /meant-for-the-shell/);
  });

  it('a malformed expectReceiver is refused as INVALID_ARGUMENT saying what is valid, never as a changed receiver, and nothing is typed', async () => {
    await open();
    const good = confirmedIdentity(h.service.sendTarget(h.owner, id));
    const malformed: unknown[] = [
      'shell-prompt',
      42,
      [],
      {},
      { kind: 'shell' },
      { ...good, processGroup: String(good.processGroup) },
      { ...good, processGroup: -1 },
      { ...good, place: 'here' },
      { ...good, place: { cwd: 7, traps: { kind: 'none' } } },
      { ...good, place: { cwd: h.tmp } },
      { ...good, place: { traps: { kind: 'set' } } },
      { ...good, place: { traps: 'none' } },
    ];
    for (const expectReceiver of malformed) {
      await assert.rejects(
        send({ input: 'echo meant-once', expectReceiver: expectReceiver as never }),
        (e: Error) =>
          (e as { code?: string }).code === 'INVALID_ARGUMENT' &&
          /^expectReceiver/.test(e.message) &&
          /shell-prompt, shell-continuation, program, exited/.test(e.message),
        JSON.stringify(expectReceiver),
      );
      assert.throws(
        () => h.service.startBackground(h.owner, id, { input: 'echo meant-once', expectReceiver: expectReceiver as never }),
        (e: Error) => (e as { code?: string }).code === 'INVALID_ARGUMENT',
      );
    }
    assert.doesNotMatch(raw(), /meant-once/);
    assert.equal((await send({ input: 'echo meant-once', expectReceiver: good })).output, 'meant-once');
  });

  it('a command confirmed in one folder is refused once the shell is in another (an earlier command ran cd), and nothing is typed', async () => {
    await open();
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(h.tmp, 'elsewhere-')));
    // Two calls confirmed one after the other, both at the prompt in the session's folder…
    const forCd = confirmedIdentity(h.service.sendTarget(h.owner, id));
    const forTouch = confirmedIdentity(h.service.sendTarget(h.owner, id));
    assert.equal(forTouch.place?.cwd, fs.realpathSync(h.tmp));
    // …the first moves the shell, so the second would run somewhere its confirmation did not say.
    await send({ input: `cd ${elsewhere}`, expectReceiver: forCd });
    await assert.rejects(
      send({ input: 'touch confirmed-here', expectReceiver: forTouch }),
      refused(
        'RECEIVER_CHANGED',
        new RegExp(`nothing was typed: the confirmation said the shell is in "${fs.realpathSync(h.tmp)}", but now it is in "${elsewhere}"`),
      ),
    );
    assert.doesNotMatch(raw(), /confirmed-here/);
    assert.equal(fs.existsSync(path.join(elsewhere, 'confirmed-here')), false);
    // Confirmed where it is now, it runs.
    assert.equal((await send({ input: 'pwd', expectReceiver: confirmedIdentity(h.service.sendTarget(h.owner, id)) })).output, elsewhere);
  });

  it('a command confirmed with no trap is refused once a DEBUG trap is set (it may change the folder first), and nothing is typed', async () => {
    await open();
    const confirmed = confirmedIdentity(h.service.sendTarget(h.owner, id));
    assert.deepEqual(confirmed.place?.traps, { kind: 'none' });
    // A trap that does nothing yet: the folder is the same, the trap alone refuses.
    await send(`trap ':' DEBUG`);
    await assert.rejects(
      send({ input: 'touch trapped', expectReceiver: confirmed }),
      refused('RECEIVER_CHANGED', /the confirmation showed no trap in the shell, but now the traps "trap -- ':' DEBUG"/),
    );
    assert.doesNotMatch(raw(), /touch trapped/);
    // A confirmation that showed the trap stands while the trap is the same.
    const withTrap = confirmedIdentity(h.service.sendTarget(h.owner, id));
    assert.equal(withTrap.place?.traps.kind, 'set');
    assert.equal((await send({ input: 'trap - DEBUG; echo cleared', expectReceiver: withTrap })).output, 'cleared');
  });

  it('a command confirmed with no trap is refused once a trap on a signal is set (the signal may move it while it runs)', async () => {
    await open();
    const confirmed = confirmedIdentity(h.service.sendTarget(h.owner, id));
    await send(`trap 'cd /' USR1`);
    await assert.rejects(
      send({ input: 'touch trapped', expectReceiver: confirmed }),
      refused('RECEIVER_CHANGED', /no trap in the shell, but now the traps "trap -- 'cd \/' (SIG)?USR1"/),
    );
    assert.doesNotMatch(raw(), /touch trapped/);
  });

  it('a confirmed program receiver carries no folder: a program reading input is not refused for a cd of its own', async () => {
    await open();
    await send('cat');
    const confirmed = confirmedIdentity(h.service.sendTarget(h.owner, id));
    assert.equal(confirmed.kind, 'program');
    assert.equal(confirmed.place, undefined);
    assert.equal((await send({ input: 'to cat', expectReceiver: confirmed })).waiting, 'program-input');
    await send({ keys: ['Ctrl-D'] });
  });

  it('a session name with a bidirectional control or a line break is refused, naming it', async () => {
    await assert.rejects(h.service.open(h.owner, { name: 'build\u202Eevil' }), refused('INVALID_ARGUMENT', /name contains U\+202E/));
    await assert.rejects(h.service.open(h.owner, { name: 'a\nb' }), refused('INVALID_ARGUMENT', /name contains U\+000A/));
    assert.equal(h.service.list(h.owner).length, 0);
  });
});
