// Command marks in the panel mirror (src/terminal/panel/commandMarks.ts): a real pty-bash session's
// output and command events go through CommandMarks and PacedMirror, as the panel's Mirror wires
// them, into a real headless xterm.js "panel". The panel reads `OSC 1337 ; SetMark` as VS Code's
// ShellIntegrationAddon does: a buffer mark (xterm.js `registerMarker`) at the cursor's line. Shell
// integration sequences (OSC 133, 633) are counted: none may reach the panel.
import * as assert from 'node:assert/strict';
import { IMarker, Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import {
  CommandMarks,
  gutterMarksSupported,
  listeningNote,
  markSentinel,
  markSentinelRows,
  statusLine,
} from '../../../../src/terminal/panel/commandMarks';
import { initialText } from '../../../../src/terminal/panel/skipAhead';
import type { CommandRecord } from '../../../../src/terminal/history/commandRecord';
import { MirrorPacing, PacedMirror } from '../../../../src/terminal/panel/pacedMirror';
import { Harness, harness } from '../../../helpers/terminalHarness';
import { mirrorSettled, written } from '../../../helpers/panelTerminal';
import { mirrorEmulatorEntry } from '../../../helpers/workerEntry';

const COLS = 40;
const ROWS = 10;

/** A panel as VS Code's xterm reads our sequences: SetMark adds a mark at the cursor's line. */
function panelTerminal() {
  const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 5000, allowProposedApi: true, logLevel: 'off' });
  const marks: IMarker[] = [];
  const shellIntegration: string[] = [];
  term.parser.registerOscHandler(1337, (data) => {
    if (data.split(';')[0] === 'SetMark') {
      const marker = term.registerMarker(0);
      if (marker) marks.push(marker);
    }
    return true;
  });
  for (const osc of [133, 633]) {
    term.parser.registerOscHandler(osc, (data) => (shellIntegration.push(`${osc};${data}`), true));
  }
  return { term, marks, shellIntegration };
}

/** The panel's buffer line `y` as text (wrapped rows are separate lines). */
const lineAt = (term: Terminal, y: number) => term.buffer.active.getLine(y)?.translateToString(true) ?? '';

/** Every line of the panel's buffer. */
function panelLines(term: Terminal): string[] {
  const b = term.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < b.length; y++) out.push(lineAt(term, y));
  return out;
}

/** Plain text of a status line (its SGR and EL removed). */
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** A session mirrored into a panel, wired as src/vscode/terminal/agentTerminals.ts wires the Mirror. */
async function mirroredSession(h: Harness, pacing: Partial<MirrorPacing> = { frameMs: 5, refreshMs: 100 }, opened = true) {
  const owner = h.service.createOwner('marks');
  const { sessionId } = await h.service.open(owner, { name: 'marks' });
  const panel = panelTerminal();
  const frames: string[] = [];
  const marks = new CommandMarks(COLS);
  const mirror = new PacedMirror({
    cols: COLS,
    rows: ROWS,
    pacing,
    markNonce: marks.nonce,
    emulatorEntry: mirrorEmulatorEntry(),
    write: (text) => {
      const out = marks.written(text);
      frames.push(out);
      panel.term.write(out);
    },
  });
  const records: CommandRecord[] = [];
  const subscriptions = [
    h.service.onOutput(owner, sessionId, (text) => mirror.push(marks.output(text))),
    h.service.onCommand(owner, sessionId, (event) => {
      if (event.kind === 'prompt' && event.ended) records.push(event.ended);
      mirror.push(marks.event(event));
    }),
  ];
  if (opened) mirror.open(COLS, ROWS);
  const settled = () => mirrorSettled(mirror, panel.term);
  const send = async (input: string) => {
    await h.service.send(owner, sessionId, { input });
    await settled();
  };
  const dispose = () => {
    subscriptions.forEach((s) => s.dispose());
    mirror.dispose();
    panel.term.dispose();
  };
  return { owner, sessionId, panel, frames, mirror, records, send, settled, dispose };
}

describe('command marks in the panel mirror (pty-bash, xterm.js)', function () {
  this.timeout(120_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('marks each command on the line it was typed at and follows its output with its exit status', async () => {
    const m = await mirroredSession(h);
    const long = `echo ${'x'.repeat(100)}`; // wraps over three rows of 40
    const commands = [
      'echo one',
      "printf 'no newline'; false",
      'cat <<EOF\nalpha\nbeta\nEOF',
      long,
      'echo a\necho b',
      'exit_with() { return $1; }; exit_with 3',
    ];
    for (const c of commands) await m.send(c);
    await m.send(''); // an empty line at the prompt runs no command: no mark, no status
    await m.send('true');
    const lines = panelLines(m.panel.term);
    const all = [...commands, 'true'];
    assert.equal(m.panel.marks.length, all.length, JSON.stringify(lines));
    assert.deepEqual(m.panel.shellIntegration, []);
    assert.equal(m.frames.join('').includes('dsh-mark'), false, 'the sentinel never reaches the panel');
    for (const [k, command] of all.entries()) {
      const y = m.panel.marks[k]!.line;
      const firstLine = command.split('\n')[0]!;
      assert.equal(
        lineAt(m.panel.term, y),
        `$ ${firstLine}`.slice(0, COLS),
        `mark ${k} of ${JSON.stringify(command)} is on line ${y}: ${JSON.stringify(lines.slice(Math.max(0, y - 2), y + 3))}`,
      );
    }
    // Status lines, in order, each after its command's output and before the next mark.
    const statuses = lines.filter((l) => /^[✓✗■] command \d+ ·/.test(l));
    assert.deepEqual(
      statuses.map((l) => l.replace(/ · [\d.]+ s$/, '')),
      [
        '✓ command 1 · exit 0',
        '✗ command 2 · exit 1',
        '✓ command 3 · exit 0',
        '✓ command 4 · exit 0',
        '✓ command 5 · exit 0',
        '✗ command 6 · exit 3',
        '✓ command 7 · exit 0',
      ],
    );
    const statusRow = (index: number) =>
      lines.findIndex((l) => l.startsWith(`${index === 2 || index === 6 ? '✗' : '✓'} command ${index} ·`));
    // Output without a final newline keeps its line; the status starts a line of its own.
    assert.equal(lines[statusRow(2) - 1], 'no newline');
    assert.deepEqual(
      lines.slice(m.panel.marks[0]!.line, statusRow(1) + 1).map((l) => l.replace(/ · [\d.]+ s$/, '')),
      ['$ echo one', 'one', '✓ command 1 · exit 0'],
    );
    assert.deepEqual(lines.slice(m.panel.marks[2]!.line + 4, statusRow(3)), ['alpha', 'beta']);
    assert.deepEqual(lines.slice(m.panel.marks[4]!.line, statusRow(5)), ['$ echo a', 'echo b', 'a', 'b']);
    // The empty line's prompt sits between command 6's status and command 7's mark.
    assert.deepEqual(lines.slice(statusRow(6) + 1, m.panel.marks[6]!.line + 1), ['$ ', '$ true']);
    // The status lines are the records' own.
    assert.deepEqual(
      m.records.map((r) => r.index),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(plain(statusLine(m.records[1]!)), statuses[1]);
    m.dispose();
  });

  it('a command a signal ended gets its signal; a full-screen program gets its status on the line after its command', async () => {
    const m = await mirroredSession(h);
    const started = h.service.send(m.owner, m.sessionId, { input: 'sleep 30', timeoutMs: 1000 });
    assert.equal((await started).waitReason, 'timeout');
    h.service.signal(m.owner, m.sessionId, 'SIGINT');
    await h.service.send(m.owner, m.sessionId, {
      input: "printf '\\033[?1049h\\033[2J\\033[Hfull screen'; sleep 0.3; printf '\\033[?1049l'",
    });
    await m.settled();
    const lines = panelLines(m.panel.term);
    assert.equal(m.panel.marks.length, 2, JSON.stringify(lines));
    assert.equal(lineAt(m.panel.term, m.panel.marks[0]!.line), '$ sleep 30');
    const interrupted = lines.findIndex((l) => l.startsWith('✗ command 1 · SIGINT (exit 130)'));
    assert.ok(interrupted > m.panel.marks[0]!.line, JSON.stringify(lines));
    const y = m.panel.marks[1]!.line;
    assert.match(lineAt(m.panel.term, y), /^\$ printf/);
    // The command line wraps over rows of 40: the status follows its last row, the screen restored.
    const status = lines.findIndex((l) => l.startsWith('✓ command 2 · exit 0'));
    assert.ok(status > y, JSON.stringify(lines));
    assert.ok(
      lines.slice(y, status).every((l) => !l.includes('full screen') && l !== ''),
      JSON.stringify(lines.slice(y, status + 1)),
    );
    assert.equal(m.panel.term.buffer.active.type, 'normal');
    m.dispose();
  });

  it('a program cannot print a mark: a sentinel with another nonce is an inert OSC 8 and no mark', async () => {
    const m = await mirroredSession(h);
    const forged = "printf '\\033]8;dsh-mark=0123456789abcdef01234567.0;\\007\\033]1337;SetMark\\007forged\\n'";
    await m.send(forged);
    assert.equal(m.panel.marks.length, 1, 'only the command itself is marked');
    assert.equal(lineAt(m.panel.term, m.panel.marks[0]!.line), `$ ${forged}`.slice(0, COLS));
    assert.ok(panelLines(m.panel.term).includes('forged'));
    m.dispose();
  });

  it('commands run before the panel opened keep their marks: the emulator carries them into the text it opens with', async () => {
    const m = await mirroredSession(h, { frameMs: 5, refreshMs: 100 }, false);
    const ok = await h.service.send(m.owner, m.sessionId, { input: 'echo marked-$((6*7))' });
    await h.service.send(m.owner, m.sessionId, { input: 'seq 1 25; (exit 4)' });
    assert.equal(ok.waitReason, 'stdin_read');
    m.mirror.open(COLS, ROWS);
    await m.settled();
    const lines = panelLines(m.panel.term);
    assert.deepEqual(
      m.panel.marks.map((x) => lineAt(m.panel.term, x.line)),
      ['$ echo marked-$((6*7))', '$ seq 1 25; (exit 4)'],
      JSON.stringify(lines),
    );
    assert.ok(
      lines.some((l) => l.startsWith('✗ command 2 · exit 4 · ')),
      JSON.stringify(lines),
    );
    // The mark in the panel's scrollback and the one on its screen: later commands are marked as they run.
    assert.ok(m.panel.marks[0]!.line < m.panel.term.buffer.active.baseY, JSON.stringify(lines));
    await m.send('echo later');
    assert.equal(lineAt(m.panel.term, m.panel.marks[2]!.line), '$ echo later');
    assert.equal(m.frames.join('').includes('dsh-mark'), false, 'the sentinel never reaches the panel');
    m.dispose();
  });

  it('a skip-ahead keeps the marks of the commands whose lines it redraws', async () => {
    const m = await mirroredSession(h, { frameMs: 5, refreshMs: 100, frameCost: 64, skipCost: 512 });
    await m.send('echo first');
    await m.send('seq 1 150');
    assert.ok(m.mirror.stats.skipAheads >= 1, JSON.stringify(m.mirror.stats));
    const lines = panelLines(m.panel.term);
    // The lines the skip-ahead redrew (after its notice) hold both commands: both are marked there.
    const notice = lines.length - 1 - [...lines].reverse().findIndex((l) => l.includes('not shown here'));
    assert.ok(notice < lines.length, JSON.stringify(lines));
    const redrawn = m.panel.marks.filter((x) => !x.isDisposed && x.line > notice).map((x) => lineAt(m.panel.term, x.line));
    assert.deepEqual(redrawn, ['$ echo first', '$ seq 1 150'], JSON.stringify(lines));
    m.dispose();
  });

  it('after a skip-ahead, the skipped command keeps its status line and later commands their marks', async () => {
    const m = await mirroredSession(h, { frameMs: 5, refreshMs: 100, frameCost: 512, skipCost: 4096 });
    await m.send('seq 1 20000');
    await m.send('echo after');
    assert.ok(m.mirror.stats.skipAheads >= 1, JSON.stringify(m.mirror.stats));
    const lines = panelLines(m.panel.term);
    const last = m.panel.marks[m.panel.marks.length - 1]!;
    assert.equal(lineAt(m.panel.term, last.line), '$ echo after', JSON.stringify(lines.slice(-12)));
    assert.deepEqual(
      lines.slice(last.line - 2, last.line).map((l) => l.replace(/ · [\d.]+ s$/, '')),
      ['20000', '✓ command 1 · exit 0'],
    );
    assert.match(lines[last.line + 2] ?? '', /^✓ command 2 · exit 0 · /);
    m.dispose();
  });
});

describe('command status lines', () => {
  it('a command a signal stopped says so, in yellow, with no exit code', () => {
    const record: CommandRecord = {
      index: 4,
      command: 'sleep 30',
      typedBy: 'agent',
      startedAt: new Date(0).toISOString(),
      durationMs: 1500,
      state: 'stopped',
      signal: 'SIGTSTP',
      output: { firstLineNumber: 0, lineCount: 0, offset: 0, bytes: 0, truncated: false },
    };
    assert.equal(plain(statusLine(record)), '■ command 4 · stopped by SIGTSTP · 1.5 s');
    assert.ok(statusLine(record).startsWith('\x1b[0;2;33m'));
  });

  it("ends with the session's listening ports, a program's command line shown without acting on the terminal", () => {
    const record: CommandRecord = {
      index: 2,
      command: 'npm run dev &',
      typedBy: 'agent',
      startedAt: new Date(0).toISOString(),
      durationMs: 100,
      state: 'finished',
      exitCode: 0,
      output: { firstLineNumber: 0, lineCount: 0, offset: 0, bytes: 0, truncated: false },
    };
    const note = listeningNote([
      { protocol: 'tcp', address: '127.0.0.1', port: 5173, pid: 10, command: 'node vite' },
      { protocol: 'udp', address: '::', port: 5353, pid: 11, command: 'evil \x1b]0;owned\x07' },
    ]);
    assert.equal(
      plain(statusLine(record, note)),
      '✓ command 2 · exit 0 · 0.1 s · listening 127.0.0.1:5173 (node vite), udp [::]:5353 (evil ⟨U+001B⟩]0;owned⟨U+0007⟩)',
    );
    assert.ok(!note!.includes('\x1b'), 'no escape of the program reaches the terminal');
    assert.equal(listeningNote([]), undefined);
  });
});

describe('command marks: the sentinel cut between two writes', () => {
  it('is held back until its end arrives, then written as one mark', () => {
    const marks = new CommandMarks(40, true, 'abc');
    const sentinel = marks.event({ kind: 'start', record: { index: 1 } as CommandRecord });
    assert.equal(sentinel, '\x1b]8;dsh-mark=abc.0;\x07');
    const mark = '\x1b7\x1b]1337;SetMark\x07\x1b8';
    for (let cut = 1; cut < sentinel.length; cut++) {
      const a = marks.written(`x${sentinel.slice(0, cut)}`);
      const b = marks.written(`${sentinel.slice(cut)}y`);
      assert.equal(a + b, `x${mark}y`, `cut at ${cut}`);
    }
    // An escape that is not a sentinel waits only for the next write.
    assert.equal(marks.written('a\x1b') + marks.written('[0m'), 'a\x1b[0m');
    // Without gutter marks, the sentinel is removed.
    assert.equal(new CommandMarks(40, false, 'abc').written(`x${sentinel}y`), 'xy');
  });

  it('gutter marks from VS Code 1.139 on, whose mark navigation does not loop over buffer marks', () => {
    assert.deepEqual(['1.100.3', '1.138.9', '1.139.0', '1.139.1', '1.140.0-insider', '2.0.0', 'x'].map(gutterMarksSupported), [
      false,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('command marks: the text a panel terminal opens with (skipAhead.ts initialText)', () => {
  /** Each row of `term`'s normal buffer: whether it continues the row above, then each cell's character, colours and flags. */
  function cellRows(term: Terminal): string[] {
    const b = term.buffer.normal;
    const cell = b.getNullCell();
    const rows: string[] = [];
    for (let y = 0; y < b.length; y++) {
      const line = b.getLine(y)!;
      let row = line.isWrapped ? '~' : ' ';
      for (let x = 0; x < term.cols; x++) {
        line.getCell(x, cell);
        row += `${cell.getChars() || ' '}/${cell.getFgColorMode()}.${cell.getFgColor()}/${cell.getBgColorMode()}.${cell.getBgColor()}/${cell.isBold()}|`;
      }
      rows.push(row);
    }
    return rows;
  }

  /** An emulator that read `output` (marks at `<M>`, as mirrorEmulatorWorker.ts reads them), and a blank panel given its initial text. */
  async function opened(output: string) {
    const marks = new CommandMarks(COLS, true, 'n0nce');
    const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 1000, allowProposedApi: true, logLevel: 'off' });
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    const emulatorMarks: IMarker[] = [];
    term.parser.registerOscHandler(8, (data) => {
      const rows = markSentinelRows(data, marks.nonce);
      if (rows === undefined) return false;
      const marker = term.registerMarker(-rows);
      if (marker) emulatorMarks.push(marker);
      return true;
    });
    await written(term, output.replaceAll('<M>', markSentinel(marks.nonce, 0)));
    const lines = emulatorMarks.map((m) => m.line);
    const text = initialText({ term, serializer }, 1000, lines.length ? { lines, text: markSentinel(marks.nonce, 0) } : undefined);
    const panel = panelTerminal();
    await written(panel.term, marks.written(text));
    return { term, panel };
  }

  const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => `${from + k}\r\n`).join('');

  it('shows what the emulator shows, cell for cell: a line wrapped across the scrollback and the screen stays one line, blank rows keep their colour', async () => {
    for (const [name, output] of [
      ['a line wrapped across the top of the screen', `$ seq<M>\r\n${numbers(1, 12)}${'w'.repeat(COLS + 10)}\r\n${numbers(1, ROWS - 2)}$ `],
      ['rows scrolled in under a coloured pen', `$ printf<M>\r\n${numbers(1, 12)}\x1b[41m\r\n\r\n`],
      ['no marks', `${numbers(1, 12)}${'w'.repeat(COLS + 10)}\r\n${numbers(1, ROWS - 2)}$ `],
    ] as const) {
      const { term, panel } = await opened(output);
      const mine = cellRows(panel.term);
      assert.deepEqual(mine.slice(-term.buffer.normal.length), cellRows(term), name);
      assert.equal(panel.term.buffer.active.cursorY, term.buffer.active.cursorY, name);
      assert.equal(panel.term.buffer.active.cursorX, term.buffer.active.cursorX, name);
      if (output.includes('<M>'))
        assert.deepEqual(
          panel.marks.map((m) => lineAt(panel.term, m.line).slice(0, 5)),
          [output.slice(0, 5)],
          name,
        );
    }
  });
});
