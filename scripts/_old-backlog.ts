import { Terminal } from '@xterm/headless';
import { PanelFilter } from '../src/terminal/escapeScan';
const E = '\x1b';
function lines(n: number) { let out = ''; for (let i = 0; i < n; i++) out += `${E}[1mline${E}[0m ${i} ${E}[32mgreen${E}[0m text\r\n`; return out; }
const render = (t: string) => new Promise<string>((r) => { const term = new Terminal({ cols: 40, rows: 8, allowProposedApi: true, logLevel: 'off' }); term.write(t, () => { const b = term.buffer.active; const rows = []; for (let y = 0; y < b.length; y++) rows.push(b.getLine(y)!.translateToString(true)); r(rows.filter(Boolean)[0]!); }); });
(async () => { let bad = 0; const samples: string[] = [];
for (let k = 0; k < 40; k++) { const output = `${lines(2500)}${'a'.repeat(k)}\r\n$ `; const old = new PanelFilter().push(output).slice(-64 * 1024); const first = await render(old); if (/\[|^[0-9;]*m/.test(first) ) { bad++; if (samples.length < 3) samples.push(first); } }
console.log(`today's 64 KiB backlog: ${bad} of 40 cuts draw a broken sequence as text, e.g.`, JSON.stringify(samples)); })();
