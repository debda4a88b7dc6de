// Benchmark of the terminal auto-approval judge: the parse cost of a 10 KB command line with
// tree-sitter-bash (the grammar VS Code ships), inside the worker thread's code path and on this
// thread for comparison, and the host-thread time of a judgement through the worker (ApprovalThread:
// the calling thread only posts the line and takes the decision back). Lines: one long argument,
// 1 000 commands joined by `&&`, nested substitutions, and a line that cannot be parsed.
// Run: npm run bench:approval
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalThread } from '../src/approval/approvalThread';
import { approveLine } from '../src/approval/approveLine';
import { loadBashGrammar } from '../src/approval/bashGrammar';
import { mergeRuleLayers, rulesFrom } from '../src/approval/rules';
import type { ApprovalContext } from '../src/approval/types';
import { startLagProbe } from '../test/helpers/eventLoopLag';
import { approvalWorkerEntry, treeSitterWasmFolder } from '../test/helpers/workerEntry';

const TEN_KB = 10 * 1024;
const fit = (s: string) => s.slice(0, TEN_KB);
const LINES: [string, string][] = [
  ['one 10 KB argument', fit(`echo ${'a'.repeat(TEN_KB)}`)],
  ['commands joined by &&', fit(Array.from({ length: 2000 }, (_, i) => `ls d${i}`).join(' && '))],
  ['nested $( )', fit(`${'echo $('.repeat(700)}ls${')'.repeat(700)}`)],
  ['quotes and escapes', fit(Array.from({ length: 800 }, (_, i) => `echo "a\\"${i}" 'b' c\\ d;`).join(' '))],
  ['unparseable', fit(`${'( '.repeat(3000)}ls`)],
];

async function main(): Promise<void> {
  const defaults = JSON.parse(fs.readFileSync(path.join(__dirname, '../test/fixtures/approval/vscode-1.139.1-autoApprove-default.json'), 'utf8')) as Record<string, unknown>;
  const rules = rulesFrom(mergeRuleLayers([defaults]), () => 'default').rules.map(({ key, approve, matchCommandLine, source }) => ({ key, approve, matchCommandLine, source }));
  const context: ApprovalContext = { rules, cwd: process.cwd(), workspaceFolders: [process.cwd()], blockFileWrites: 'outsideWorkspace', npmScripts: [], shellNames: [] };
  const grammar = await loadBashGrammar(treeSitterWasmFolder());
  console.log(`node ${process.version}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('line                        bytes   parse+judge ms on this thread: min / median of 20   via the worker: host thread held at most (ms)');
  const thread = new ApprovalThread(approvalWorkerEntry(), treeSitterWasmFolder(), 10_000);
  await thread.decide('ls', context); // starts the worker and loads the grammar
  for (const [what, line] of LINES) {
    const times: number[] = [];
    let approved = false;
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now();
      approved = approveLine(line, context, grammar.parser(1000)).approved;
      if (i >= 5) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const min = times[0]!;
    const probe = startLagProbe(1);
    for (let i = 0; i < 10; i++) await thread.decide(line, context);
    const lag = probe.stop();
    console.log(`${what.padEnd(28)}${String(Buffer.byteLength(line)).padStart(5)}   ${min.toFixed(2).padStart(7)} / ${times[Math.floor(times.length / 2)]!.toFixed(2).padStart(7)} (approved: ${approved})${''.padEnd(18)}${lag.maxHeldMs.toFixed(2)}`);
  }
  thread.dispose();
}

void main();
