// Benchmark of the host-thread budget of the md-links index: the longest time the calling thread
// (the extension host's, in the extension) is held at once, measured by a timer ticking every 10 ms
// (max and p99 gap between ticks), while
//   - an 8 MiB note of `# h` lines is indexed, outlined and its diagnostics computed;
//   - a generated vault of 10 000 notes is indexed, then its diagnostics and a symbol search run;
// with the parser the extension uses (a worker thread) and, for comparison, the parser on the
// thread (`inline`, with the same limits). Prints the load average beside the figures.
// Run: npm run bench:notes [-- --notes N] [--no-inline]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MdLinksFeatures } from '../src/lsp/wikilinks/features';
import { NodeWorkspaceFs } from '../src/lsp/wikilinks/nodeFs';
import { inlineNoteParser, NoteParser } from '../src/lsp/wikilinks/noteParser';
import { MdLinksProvider } from '../src/lsp/wikilinks/provider';
import { WorkerNoteParser } from '../src/lsp/wikilinks/workerNoteParser';
import { pathToFileUri } from '../src/lsp/uri';
import { withLagProbe } from '../test/helpers/eventLoopLag';
import { noteParseWorkerEntry } from '../test/helpers/workerEntry';
import { bigHeadingsNote, generateVault, notePath } from '../test/bench/vault';

const args = process.argv.slice(2);
const NOTES = args.includes('--notes') ? Number(args[args.indexOf('--notes') + 1]) : 10_000;
const INLINE = !args.includes('--no-inline');

interface Row {
  what: string;
  parser: string;
  maxGapMs: number;
  p99GapMs: number;
  wallMs: number;
  detail: string;
}

/** Runs `measure` on a fresh md-links provider over `dir` (a workspace), disposing it afterwards. */
async function withProvider<T>(
  dir: string,
  parser: NoteParser,
  measure: (p: {
    ws: string;
    provider: MdLinksProvider;
    features: MdLinksFeatures;
    ctx: { workspaceUri: string; signal: AbortSignal };
  }) => Promise<T>,
): Promise<T> {
  const ws = pathToFileUri(dir);
  const provider = new MdLinksProvider(new NodeWorkspaceFs(), { parser });
  const features = new MdLinksFeatures(() => provider);
  try {
    return await measure({ ws, provider, features, ctx: { workspaceUri: ws, signal: new AbortController().signal } });
  } finally {
    provider.dispose();
  }
}

async function bigNote(dir: string, parserName: string, parser: NoteParser): Promise<Row> {
  return withProvider(dir, parser, async ({ ws, provider, features, ctx }) => {
    await provider.index(ws);
    const uri = pathToFileUri(path.join(dir, 'big.md'));
    const t0 = performance.now();
    const run = await withLagProbe(async () => {
      await provider.onFileChanged(uri);
      const outline = await features.documentSymbols(uri, 'markdown', ctx);
      await features.documentDiagnostics(uri, 'markdown', ctx);
      return outline.length;
    });
    return {
      what: '8 MiB note: index, outline, diagnostics',
      parser: parserName,
      maxGapMs: run.maxGapMs,
      p99GapMs: run.p99GapMs,
      wallMs: performance.now() - t0,
      detail: `${run.result} outline entries`,
    };
  });
}

async function vault(dir: string, parserName: string, parser: NoteParser): Promise<Row> {
  return withProvider(dir, parser, async ({ ws, provider, features, ctx }) => {
    const t0 = performance.now();
    const run = await withLagProbe(async () => {
      const index = await provider.index(ws);
      await features.workspaceDiagnostics(ctx);
      await features.workspaceSymbols('note-0123', ctx);
      await features.documentSymbols(pathToFileUri(path.join(dir, notePath(1234 % NOTES))), 'markdown', ctx);
      return index.stats();
    });
    return {
      what: `${NOTES}-note vault: build, diagnostics, symbols`,
      parser: parserName,
      maxGapMs: run.maxGapMs,
      p99GapMs: run.p99GapMs,
      wallMs: performance.now() - t0,
      detail: `${run.result.notes} notes, ${run.result.links} links`,
    };
  });
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-notes-'));
  const worker = new WorkerNoteParser({ entry: noteParseWorkerEntry() });
  const rows: Row[] = [];
  try {
    const bigDir = path.join(tmp, 'big');
    fs.mkdirSync(bigDir);
    fs.writeFileSync(path.join(bigDir, 'a.md'), '[[big]]\n');
    fs.writeFileSync(path.join(bigDir, 'big.md'), bigHeadingsNote());
    const vaultDir = path.join(tmp, 'vault');
    fs.mkdirSync(vaultDir);
    generateVault(vaultDir, NOTES);
    await worker.parse('# warm up\n', { aliasOrder: 'target-first', limits: { maxChars: 1e6, maxItems: 1e6 } });
    rows.push(await bigNote(bigDir, 'worker', worker));
    if (INLINE) rows.push(await bigNote(bigDir, 'inline', inlineNoteParser));
    rows.push(await vault(vaultDir, 'worker', worker));
    if (INLINE) rows.push(await vault(vaultDir, 'inline', inlineNoteParser));
  } finally {
    worker.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const header = ['what', 'parser', 'max hold', 'p99 gap', 'wall', 'detail'];
  const table = rows.map((r) => [r.what, r.parser, ms(r.maxGapMs), ms(r.p99GapMs), ms(r.wallMs), r.detail]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(
    `\nmd-links host-thread budget (timer every 10 ms; "max hold" = longest gap between ticks; goal ≤ 200 ms, per piece of work ~50 ms)`,
  );
  console.log(
    `load average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log("\nworker: the extension's parser (a worker thread); inline: the same parse on the measured thread, for comparison.");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
