// Benchmark of the terminal auto-approval judge: the parse cost of a 10 KB command line with
// tree-sitter-bash (the grammar VS Code ships) and of the whole judgement (parse, walk, rules), each
// run on this thread (min and median of 20 after 5 warm-up runs), and the longest time the calling
// thread is held while judgements go through the worker (ApprovalThread: the calling thread only
// posts the line and takes the decision back; an idle thread shows a few ms here on a busy machine). Lines: one long argument,
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
  const defaults = JSON.parse(
    fs.readFileSync(path.join(__dirname, '../test/fixtures/approval/vscode-1.139.1-autoApprove-default.json'), 'utf8'),
  ) as Record<string, unknown>;
  const rules = rulesFrom(mergeRuleLayers([defaults]), () => 'default').rules.map(({ key, approve, matchCommandLine, source }) => ({
    key,
    approve,
    matchCommandLine,
    source,
  }));
  const context: ApprovalContext = {
    rules,
    cwd: process.cwd(),
    workspaceFolders: [process.cwd()],
    blockFileWrites: 'outsideWorkspace',
    npmScripts: [],
    shellNames: [],
  };
  const grammar = await loadBashGrammar(treeSitterWasmFolder());
  console.log(
    `node ${process.version}, load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    'line                        bytes   parse ms (min / median)   parse+judge ms (min / median)   via the worker: host thread held at most (ms)',
  );
  // Through the worker first: the garbage of the runs on this thread would otherwise be collected
  // while the host thread is measured.
  const thread = new ApprovalThread(approvalWorkerEntry(), treeSitterWasmFolder(), 10_000);
  await thread.decide('ls', context); // starts the worker and loads the grammar
  const held = new Map<string, number>();
  for (const [what, line] of LINES) {
    for (let i = 0; i < 3; i++) await thread.decide(line, context);
    const probe = startLagProbe(1);
    for (let i = 0; i < 10; i++) await thread.decide(line, context);
    held.set(what, probe.stop().maxHeldMs);
  }
  for (const [what, line] of LINES) {
    const times: number[] = [];
    let approved = false;
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now();
      approved = approveLine(line, context, grammar.parser(1000)).approved;
      if (i >= 5) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const parses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const parse = grammar.parser(1000);
      const t0 = performance.now();
      parse(line);
      if (i >= 5) parses.push(performance.now() - t0);
    }
    parses.sort((a, b) => a - b);
    const cell = (xs: number[]) => `${xs[0]!.toFixed(2).padStart(7)} / ${xs[Math.floor(xs.length / 2)]!.toFixed(2).padStart(7)}`;
    console.log(
      `${what.padEnd(28)}${String(Buffer.byteLength(line)).padStart(5)}   ${cell(parses)}       ${cell(times)} (approved: ${String(approved).padEnd(5)})   ${held.get(what)!.toFixed(2)}`,
    );
  }
  await thread.dispose();
}

void main();
