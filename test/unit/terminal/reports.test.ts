// What a terminal emulator sends on its own (src/terminal/input/terminalReports.ts), told apart from what
// a person types: the answers are those a real xterm.js gives to the queries programs print.
import * as assert from 'node:assert/strict';
import { Terminal } from '@xterm/headless';
import { isTerminalReport } from '../../../src/terminal/input/terminalReports';

/** What xterm.js sends back (onData) after `query` is written to it. */
async function answer(query: string): Promise<string> {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  let sent = '';
  term.onData((d) => (sent += d));
  await new Promise<void>((resolve) => term.write(query, resolve));
  term.dispose();
  return sent;
}

describe('terminal reports: what the emulator sends, not the person', () => {
  it("xterm.js's own answers to the queries programs print are reports", async () => {
    const queries = {
      'DA1 (CSI c)': '\x1b[c',
      'DA2 (CSI > c)': '\x1b[>c',
      'cursor position (CSI 6 n)': '\x1b[3;7H\x1b[6n',
      'status (CSI 5 n)': '\x1b[5n',
      'DEC mode (CSI ? 25 $ p)': '\x1b[?25$p',
      'ANSI mode (CSI 4 $ p)': '\x1b[4$p',
      'status string (DECRQSS m)': '\x1bP$qm\x1b\\',
    };
    for (const [what, query] of Object.entries(queries)) {
      const sent = await answer(query);
      assert.ok(sent.length > 0, `xterm.js answered nothing to ${what}`);
      assert.ok(isTerminalReport(sent), `${what}: ${JSON.stringify(sent)}`);
    }
    // Several answers arriving together are reports too.
    assert.ok(isTerminalReport(await answer('\x1b[c\x1b[6n\x1b[>c')));
  });

  it('focus, mouse, window-size and colour answers are reports', () => {
    for (const data of [
      '\x1b[I',
      '\x1b[O',
      '\x1b[<0;12;5M',
      '\x1b[<0;12;5m',
      '\x1b[M !!',
      '\x1b[8;24;80t',
      '\x1b]11;rgb:0000/0000/0000\x1b\\',
      '\x1b]10;rgb:ffff/ffff/ffff\x07',
      '\x1b[?0u',
    ]) {
      assert.ok(isTerminalReport(data), JSON.stringify(data));
    }
  });

  it('what a person types is not a report, nor is a report with typing around it', () => {
    for (const data of [
      'a',
      'ls\r',
      '\r',
      '\x03',
      '\x04',
      '\t',
      '\x7f',
      '\x1b',
      '\x1b[A',
      '\x1b[D',
      '\x1bOA',
      '\x1b[1;5C',
      '\x1b[3~',
      '\x1b[15~',
      '\x1bOP',
      '\x1b[200~pasted\x1b[201~',
      '',
      '\x1b[c!',
      'x\x1b[I',
    ]) {
      assert.ok(!isTerminalReport(data), JSON.stringify(data));
    }
  });
});
