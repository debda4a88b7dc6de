/**
 * The command record in a real extension host, as an agent uses it through `vscode.lm.invokeTool`
 * and over MCP (the SDK's Client through the shipped stdio bridge): dsh_terminal_history,
 * dsh_terminal_read with `command` and with `search` (a regular expression across 10 000 lines
 * with context; a pattern with catastrophic backtracking cut by its time bound while another call
 * answers at once), and "DSH: Show Command History" opening one command's output.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { ToolCall as Call, mcpSessionPerTest } from '../helpers/host/mcpSessions';
import { panelText, runPickingFirst, watchShellIntegration } from '../helpers/host/ui';
import { until } from '../helpers/wait';
import { gutterMarksSupported } from '../../src/terminal/panel/commandMarks';

interface Record {
  index: number;
  command: string;
  typedBy: string;
  state: string;
  exitCode?: number;
  signal?: string;
  cwdStart?: string;
  output: { firstLineNumber: number; lineCount: number; offset: number; truncated: boolean };
}
interface HistoryJson {
  commands: Record[];
  matching: number;
  total: number;
  nextOffset?: number;
}
interface Match {
  line: number;
  offset: number;
  command?: number;
  text: string;
  before?: string[];
  after?: string[];
}
interface SearchJson {
  matches: Match[];
  searchedLines: number;
  totalLines: number;
  timedOut?: boolean;
  note?: string;
}

/** A tool call as both surfaces answer it: the JSON part and the text part. */

/** The checks both surfaces must pass, on a session `sessionId` of the caller's. */
async function historyAndReads(call: Call, sessionId: string): Promise<void> {
  const first = await call<{ exitCode: number; command: number }>('dsh_terminal_send', { sessionId, input: 'echo first-$((6*7))' });
  assert.equal(first.json.exitCode, 0);
  const failed = await call<{ exitCode: number; command: number }>('dsh_terminal_send', { sessionId, input: '(exit 7)' });
  assert.equal(failed.json.exitCode, 7);
  assert.equal(failed.json.command, first.json.command + 1);

  const history = await call<HistoryJson>('dsh_terminal_history', { sessionId });
  assert.deepEqual(
    history.json.commands.map((c) => [c.index, c.command, c.exitCode, c.state, c.typedBy]),
    [
      [failed.json.command, '(exit 7)', 7, 'finished', 'agent'],
      [first.json.command, 'echo first-$((6*7))', 0, 'finished', 'agent'],
    ],
  );
  const onlyFailed = await call<HistoryJson>('dsh_terminal_history', { sessionId, failed: true });
  assert.deepEqual(
    onlyFailed.json.commands.map((c) => c.index),
    [failed.json.command],
  );
  const containing = await call<HistoryJson>('dsh_terminal_history', { sessionId, contains: 'first' });
  assert.deepEqual(
    containing.json.commands.map((c) => c.index),
    [first.json.command],
  );

  const read = await call<{ command: Record; totalLines: number }>('dsh_terminal_read', { sessionId, command: first.json.command });
  assert.equal(read.text, 'first-42');
  assert.equal(read.json.totalLines, 1);
  assert.equal(read.json.command.command, 'echo first-$((6*7))');

  // Limited to one command's output, any case.
  const inFirst = await call<SearchJson>('dsh_terminal_read', {
    sessionId,
    search: 'FIRST',
    ignoreCase: true,
    command: first.json.command,
  });
  assert.deepEqual(
    inFirst.json.matches.map((m) => [m.text, m.command]),
    [['first-42', first.json.command]],
  );

  // A regular expression across 10 000 lines, newest match first, with context.
  const rows = await call<{ exitCode: number; command: number }>('dsh_terminal_send', { sessionId, input: "seq -f 'row %g' 1 10000" });
  assert.equal(rows.json.exitCode, 0);
  const found = await call<SearchJson>('dsh_terminal_read', { sessionId, search: '^row (12|5000|9999)$', regex: true, context: 2 });
  assert.deepEqual(
    found.json.matches.map((m) => m.text),
    ['row 9999', 'row 5000', 'row 12'],
  );
  const [newest] = found.json.matches;
  assert.ok(newest);
  assert.equal(newest.command, rows.json.command);
  assert.deepEqual(newest.before, ['row 9997', 'row 9998']);
  assert.deepEqual(newest.after?.[0], 'row 10000');
  const around = await call<{ firstLineNumber: number }>('dsh_terminal_read', { sessionId, offset: newest.offset, count: 1 });
  assert.equal(around.text, 'row 9999');
  assert.equal(around.json.firstLineNumber, newest.line);
  // The 10 000 lines pushed the first command's output out of the retained scrollback: it says so.
  const gone = await call<SearchJson>('dsh_terminal_read', { sessionId, search: 'first', command: first.json.command });
  assert.deepEqual(gone.json.matches, []);
  assert.match(gone.json.note ?? '', /no longer in the scrollback/);
}

/**
 * A pathological pattern is cut by its time bound while another call of the same caller answers
 * within 1 s. On a loaded machine a call can take long by itself: the bound is then twice the time
 * the same call took just before the search (a stalled host would answer only after the search).
 */
async function runawayPattern(call: Call, sessionId: string): Promise<void> {
  const long = await call<{ exitCode: number }>('dsh_terminal_send', { sessionId, input: "printf 'a%.0s' $(seq 1 5000); echo b" });
  assert.equal(long.json.exitCode, 0);
  let t = Date.now();
  await call<HistoryJson>('dsh_terminal_history', { sessionId, count: 1 });
  const baseline = Date.now() - t;
  const started = Date.now();
  let searchDone = 0;
  const search = call<SearchJson>('dsh_terminal_read', { sessionId, search: '(a+)+$', regex: true, timeoutMs: 4000 }).finally(
    () => (searchDone = Date.now()),
  );
  await new Promise((r) => setTimeout(r, 300));
  t = Date.now();
  const other = await call<HistoryJson>('dsh_terminal_history', { sessionId, count: 1 });
  const answered = Date.now();
  assert.ok(
    answered - t < Math.max(1000, 2 * baseline),
    `another call answered after ${answered - t} ms while the search ran (${baseline} ms before it)`,
  );
  assert.equal(other.json.commands.length, 1);
  const cut = await search;
  assert.ok(searchDone > answered, 'the other call answered before the search ended');
  assert.equal(cut.json.timedOut, true);
  assert.match(cut.json.note ?? '', /time bound \(4000 ms\)/);
  assert.ok(Date.now() - started < 15_000);
}

describe('command record through vscode.lm.invokeTool', function () {
  this.timeout(120_000);
  let sessionId: string;
  const call: Call = (name, input) => invokeTool(name, input);

  before(async () => waitForTools(TERMINAL_TOOLS));
  beforeEach(async () => {
    sessionId = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'history' })).json.sessionId;
  });
  afterEach(async () => {
    await invokeTool('dsh_terminal_close', { sessionId }).catch(() => undefined);
  });

  it('history, command: reads and a regular-expression search across 10 000 lines with context', async () => {
    await historyAndReads(call, sessionId);
  });

  it('a runaway regular expression is cut by the time bound while another tool call answers within 1 s', async () => {
    await runawayPattern(call, sessionId);
  });

  it('dsh_run commands are marked as dsh_run in their own session', async () => {
    const ran = await invokeTool<{ sessionId: string; command: number; exitCode: number }>('dsh_run', { command: 'echo via-run' });
    try {
      const history = await invokeTool<HistoryJson>('dsh_terminal_history', { sessionId: ran.json.sessionId, count: 1 });
      assert.deepEqual(
        history.json.commands.map((c) => [c.index, c.command, c.typedBy]),
        [[ran.json.command, 'echo via-run', 'dsh_run']],
      );
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId: ran.json.sessionId });
    }
  });

  it('the panel terminal marks each command and its exit status, and claims no shell integration', async function () {
    const mirror = await until('the mirror terminal', () => vscode.window.terminals.find((t) => t.name.includes(sessionId)));
    const watch = watchShellIntegration(mirror);
    if (!watch) this.skip();
    const { seen } = watch;
    try {
      const ok = await invokeTool<{ command: number }>('dsh_terminal_send', { sessionId, input: 'echo marked-$((6*7))' });
      const failed = await invokeTool<{ command: number }>('dsh_terminal_send', { sessionId, input: 'echo failing; (exit 4)' });
      const lines = await until(
        'both status lines in the panel',
        async () => {
          const l = await panelText(mirror);
          return l.some((x) => x.startsWith(`✗ command ${failed.json.command} · exit 4 · `)) ? l : undefined;
        },
        15_000,
        300,
      );
      const at = lines.indexOf('$ echo marked-$((6*7))');
      assert.ok(at >= 0, JSON.stringify(lines));
      // Who let it run ends the status line: VS Code's default rule for echo where VS Code has one (1.139), else the person.
      assert.match(lines[at + 2] ?? '', / · approved by (you|rule "echo")$/);
      assert.deepEqual(
        lines.slice(at, at + 5).map((l) => l.replace(/ · [\d.]+ s( · approved by .*)?$/, '')),
        ['$ echo marked-$((6*7))', 'marked-42', `✓ command ${ok.json.command} · exit 0`, '$ echo failing; (exit 4)', 'failing'],
      );
      // VS Code's "Select To Previous Command" selects from the bottom to the previous buffer mark
      // (SetMark, without CommandDetection), one mark further at each call: the marks are on the
      // command lines, also where the panel terminal opened after the commands ran (it is given the
      // emulator's state then). Where VS Code's mark navigation would loop over buffer marks (1.100),
      // none is written, and the command answers.
      // It counts from the viewport when the viewport is not at the bottom
      // (MarkNavigationAddon.scrollToPreviousMark): the person starts from the bottom.
      const toPrevious = () => vscode.commands.executeCommand('workbench.action.terminal.selectToPreviousCommand');
      const fromBottom = async () => {
        await vscode.commands.executeCommand('workbench.action.terminal.scrollToBottom');
        await toPrevious();
      };
      const fromNewest = await panelText(mirror, fromBottom);
      if (gutterMarksSupported(vscode.version)) {
        assert.equal(fromNewest[0], '$ echo failing; (exit 4)', JSON.stringify(fromNewest));
        const fromOlder = await panelText(mirror, toPrevious);
        assert.equal(fromOlder[0], '$ echo marked-$((6*7))', JSON.stringify(fromOlder));
      }
      // Asserts that something does NOT happen: the renderer has parsed the output by now.
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(seen, []);
      assert.equal((mirror as unknown as { shellIntegration?: unknown }).shellIntegration, undefined);
    } finally {
      watch.dispose();
    }
  });

  it('"DSH: Show Command History" lists the commands and opens the picked one\'s output read-only', async () => {
    const sent = await invokeTool<{ command: number }>('dsh_terminal_send', { sessionId, input: 'echo shown-in-editor-$((6*7))' });
    await runPickingFirst('dsh.showCommandHistory');
    const doc = await until(
      'the command output editor',
      () => vscode.window.activeTextEditor?.document.uri.scheme === 'dsh-scrollback' && vscode.window.activeTextEditor.document,
    );
    assert.equal(doc.uri.path, `/${sessionId}-command-${sent.json.command}.log`);
    const text = doc.getText();
    assert.match(text, new RegExp(`^# ${sessionId} command ${sent.json.command}: exit 0`));
    assert.match(text, /^# \$ echo shown-in-editor-\$\(\(6\*7\)\)$/m);
    assert.match(text, /\nshown-in-editor-42$/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});

describe('command record over MCP', function () {
  this.timeout(120_000);
  const { call, sessionId: session } = mcpSessionPerTest('mcp-history');

  it('history, command: reads and a regular-expression search across 10 000 lines with context, over MCP', async () => {
    await historyAndReads(call, session());
  });

  it('a runaway regular expression is cut by the time bound while another MCP call answers within 1 s', async () => {
    await runawayPattern(call, session());
  });
});
