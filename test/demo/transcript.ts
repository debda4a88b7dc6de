// The demo's scripted agent transcript (the `extensionTestsPath` module of `npm run demo`). It runs
// inside the extension host where DSH Bridge is installed from the VSIX, calls the terminal tools
// through `vscode.lm.invokeTool` exactly as an agent would, and streams every call and result to
// the launcher (scripts/demo.mjs) through ../helpers/host/report.ts. A few checks of the issue's
// acceptance criteria are printed along the way and counted in the results file.
import { emit, errorText, Results, writeResults } from '../helpers/host/report';
import { invokeTool, TERMINAL_TOOLS, ToolCall, waitForTools } from '../helpers/host/lm';

const results: Results = { passed: 0, failed: 0, failures: [] };

/** Long terminal text keeps its first and last lines; the middle is summarised. */
function show(text: string, head = 3, tail = 12): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const kept =
    lines.length <= head + tail + 1
      ? lines
      : [...lines.slice(0, head), `… ${lines.length - head - tail} more lines …`, ...lines.slice(-tail)];
  return kept.map((l) => `    │ ${l}`).join('\n');
}

async function call(name: string, input: object): Promise<ToolCall> {
  emit({ text: `\n→ ${name} ${JSON.stringify(input)}` });
  const res = await invokeTool(name, input);
  emit({ text: `← ${JSON.stringify(res.json)}` + (res.text === undefined ? '' : `\n${show(res.text)}`) });
  return res;
}

function check(title: string, ok: boolean, detail: string): void {
  if (ok) results.passed++;
  else {
    results.failed++;
    results.failures.push({ title, error: detail });
  }
  emit({ text: `  ${ok ? '✔' : '✘'} check: ${title}${ok ? '' : ` (${detail})`}`, outcome: ok ? 'passed' : 'failed' });
}

const lines = (text: string | undefined) => (text ?? '').split('\n').map((l) => l.trimEnd());

/** Runs the transcript; resolves when every step and check succeeded, rejects otherwise. */
export async function run(): Promise<void> {
  let sessionId: string | undefined;
  try {
    await waitForTools(TERMINAL_TOOLS);
    sessionId = (await call('dsh_terminal_open', {})).json.sessionId as string;

    await call('dsh_terminal_send', { sessionId, input: 'seq 1 20000' });
    const page = await call('dsh_terminal_read', { sessionId, offset: 0, count: 200 });
    const { offset, lineBegin, lineEnd } = page.json as { offset: number; lineBegin: number; lineEnd: number };
    const pageLines = lines(page.text).filter((l, i, all) => i < all.length - 1 || l !== '');
    check('the last page holds 20000', pageLines.includes('20000'), `page ends with ${JSON.stringify(pageLines.slice(-3))}`);
    check(
      'offset 0 = lineBegin, and lineEnd - lineBegin = the lines on the page',
      offset === 0 && lineBegin === offset && lineEnd - lineBegin === pageLines.length,
      `offset ${offset}, lineBegin ${lineBegin}, lineEnd ${lineEnd}, ${pageLines.length} lines on the page`,
    );

    const ask = await call('dsh_terminal_send', { sessionId, input: `python3 -c "n=input('Name: '); print('hi', n)"` });
    check('input() makes the send return stdin_read', ask.json.waitReason === 'stdin_read', `waitReason ${String(ask.json.waitReason)}`);
    const answer = await call('dsh_terminal_send', { sessionId, input: 'Bob' });
    check('the answer prints "hi Bob"', lines(answer.text).includes('hi Bob'), 'no line "hi Bob" in the viewport');
    check('back at the prompt: stdin_read', answer.json.waitReason === 'stdin_read', `waitReason ${String(answer.json.waitReason)}`);

    const slow = await call('dsh_terminal_send', { sessionId, input: 'sleep 30', timeoutMs: 2000 });
    check('sleep 30 with timeoutMs 2000 returns timeout', slow.json.waitReason === 'timeout', `waitReason ${String(slow.json.waitReason)}`);
  } catch (err) {
    results.failed++;
    results.failures.push({ title: 'transcript', error: errorText(err) });
    emit({ text: `✘ the transcript stopped: ${errorText(err)}`, outcome: 'failed' });
  } finally {
    if (sessionId) {
      await call('dsh_terminal_close', { sessionId }).catch((err) => {
        results.failed++;
        results.failures.push({ title: 'dsh_terminal_close', error: errorText(err) });
        emit({ text: `✘ dsh_terminal_close threw: ${errorText(err)}`, outcome: 'failed' });
      });
    }
  }
  writeResults(results);
  if (results.failed > 0) throw new Error(`${results.failed} transcript step(s) failed`);
}
