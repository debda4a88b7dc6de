// Benchmark of the md-links wiki-link provider (issue 7): index build time and the median time of a
// warm findReferences query through the LspService, on the real foam-docs vault and on a generated
// 10 000-note vault (in a temp folder, removed afterwards), next to `rg -F` searching the same
// vault for the link text; then dsh_symbols' markdown answers on the generated vault: a note's
// outline and a workspace symbol search by name (warm index, shaped as the tool shows them).
// Run: npx tsx scripts/bench-wikilinks.ts [--notes N] [--runs N]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LspService } from '../src/lsp/service';
import { MdLinksProvider } from '../src/lsp/wikilinks/provider';
import { NodeWorkspaceFs } from '../src/lsp/wikilinks/nodeFs';
import { fileUriToPath, pathToFileUri } from '../src/lsp/uri';
import { MdLinksFeatures } from '../src/lsp/wikilinks/features';
import { matchSymbolName } from '../src/lsp/features/match';
import { shapeOutline, shapeWorkspaceSymbols } from '../src/lsp/features/shapeSymbols';
import { splitLines } from '../src/lsp/position';
import { median } from '../test/bench/timing';
import { generateVault } from '../test/bench/vault';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const NOTES = arg('--notes', 10_000);
const RUNS = arg('--runs', 30);
const FOAM_DOCS = path.resolve(__dirname, '../test/fixtures/foam-docs');

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

interface Row {
  vault: string;
  notes: number;
  links: number;
  buildMs: number;
  coldFirstQueryMs: number;
  warmReferencesMs: number;
  distinctReferencesMs: number;
  hits: number;
  rgMs: number | undefined;
  rgLines: number | undefined;
}

async function bench(label: string, dir: string, targetRel: string, needle: string): Promise<Row> {
  const service = new LspService();
  const provider = new MdLinksProvider(new NodeWorkspaceFs());
  service.registerProvider(provider);
  const ws = pathToFileUri(dir);
  const query = {
    operation: 'findReferences' as const,
    uri: pathToFileUri(path.join(dir, targetRel)),
    position: { line: 0, character: 0 },
    workspaceUri: ws,
  };

  const t0 = performance.now();
  const first = await service.query(query, new AbortController().signal);
  const coldFirstQueryMs = performance.now() - t0;
  const index = await provider.index(ws);
  const stats = index.stats();

  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const r = await service.query(query, new AbortController().signal);
    times.push(performance.now() - s);
    hits = r.kind === 'locations' ? r.locations.length - 1 : 0; // minus the declaration
  }
  if (first.kind !== 'locations') throw new Error('unexpected result');

  // Warm index, a different note each time (no resolution cached for that note's links yet).
  const others = [...index.allNotes()].map((n) => n.relPath).sort();
  const step = Math.max(1, Math.floor(others.length / RUNS));
  const distinct: number[] = [];
  for (let i = 0; i < others.length && distinct.length < RUNS; i += step) {
    const q = { ...query, uri: pathToFileUri(path.join(dir, others[i]!)) };
    const s = performance.now();
    await service.query(q, new AbortController().signal);
    distinct.push(performance.now() - s);
  }

  let rgMs: number | undefined;
  let rgLines: number | undefined;
  const rgTimes: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    const s = performance.now();
    const rg = spawnSync('rg', ['-F', '--no-config', '-c', needle, dir], { encoding: 'utf8' });
    const took = performance.now() - s;
    if (rg.error) break; // rg not installed
    rgTimes.push(took);
    rgLines = rg.stdout
      .split('\n')
      .filter(Boolean)
      .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1)), 0);
  }
  if (rgTimes.length) rgMs = median(rgTimes);

  return {
    vault: label,
    notes: stats.notes,
    links: stats.links,
    buildMs: stats.buildMs,
    coldFirstQueryMs,
    warmReferencesMs: median(times),
    distinctReferencesMs: median(distinct),
    hits,
    rgMs,
    rgLines,
  };
}

/**
 * dsh_symbols on notes, warm: the outline of one note and a workspace search by name (a prefix
 * matching 10 notes' file names and titles, a scattered query matching many), each through
 * MdLinksFeatures and shaped as the tool shows them (first page of 50). Median of RUNS, in ms.
 */
async function benchSymbols(dir: string, noteRel: string): Promise<string[][]> {
  const provider = new MdLinksProvider(new NodeWorkspaceFs());
  const features = new MdLinksFeatures(() => provider);
  const ws = pathToFileUri(dir);
  const ctx = { workspaceUri: ws, signal: new AbortController().signal };
  const page = {
    roots: [ws],
    offset: 0,
    limit: 50,
    readLines: async (uri: string) => splitLines(fs.readFileSync(fileUriToPath(uri), 'utf8')),
  };
  const t0 = performance.now();
  await provider.index(ws);
  const buildMs = performance.now() - t0;
  const timed = async (f: () => Promise<{ total: number }>) => {
    let total = 0;
    await f();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      total = (await f()).total;
      times.push(performance.now() - s);
    }
    return { ms: median(times), total };
  };
  const noteUri = pathToFileUri(path.join(dir, noteRel));
  const outline = await timed(async () => shapeOutline(await features.documentSymbols(noteUri, 'markdown', ctx), page));
  const search = (q: string) => async () =>
    shapeWorkspaceSymbols(
      (await features.workspaceSymbols(q, ctx)).map((symbol) => ({ symbol, score: matchSymbolName(q, symbol.name)! })),
      page,
    );
  const prefix = await timed(search('note-0123'));
  const scattered = await timed(search('n1234'));
  return [
    ['index build (for these)', '', ms(buildMs)],
    [`outline of ${noteRel}`, String(outline.total), ms(outline.ms)],
    ["workspace symbols 'note-0123' (prefix)", String(prefix.total), ms(prefix.ms)],
    ["workspace symbols 'n1234' (scattered)", String(scattered.total), ms(scattered.ms)],
  ];
}

let symbolRows: string[][] = [];

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (fs.existsSync(FOAM_DOCS)) {
    rows.push(await bench('foam-docs', FOAM_DOCS, 'user/features/wikilinks.md', '[[wikilinks'));
  } else {
    console.error(`foam-docs not found at ${FOAM_DOCS} (it is part of the repository: test/fixtures/foam-docs); skipping it`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-vault-'));
  try {
    const g0 = performance.now();
    generateVault(tmp, NOTES);
    console.error(`generated ${NOTES} notes in ${ms(performance.now() - g0)} at ${tmp}`);
    const target = 'note-01234';
    rows.push(await bench(`generated ${NOTES}`, tmp, `area-${String(1234 % 100).padStart(2, '0')}/${target}.md`, `[[${target}`));
    symbolRows = await benchSymbols(tmp, `area-${String(1234 % 100).padStart(2, '0')}/${target}.md`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  console.log(`\nmd-links benchmark (median of ${RUNS} warm findReferences through LspService; rg -F median of up to 10 runs)\n`);
  const header = [
    'vault',
    'notes',
    'links',
    'index build',
    'cold 1st query',
    'warm refs (same)',
    'warm refs (each new)',
    'hits',
    'rg -F',
    'rg lines',
    'rg / warm new',
  ];
  const table = rows.map((r) => [
    r.vault,
    String(r.notes),
    String(r.links),
    ms(r.buildMs),
    ms(r.coldFirstQueryMs),
    ms(r.warmReferencesMs),
    ms(r.distinctReferencesMs),
    String(r.hits),
    r.rgMs === undefined ? 'n/a' : ms(r.rgMs),
    r.rgLines === undefined ? 'n/a' : String(r.rgLines),
    r.rgMs === undefined ? 'n/a' : `${(r.rgMs / r.distinctReferencesMs).toFixed(0)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log(
    '\nwarm refs (same): the same note again (resolutions cached); (each new): a different note each time on the built index.\n' +
      'hits = links resolving to the note (code examples excluded, exact resolution); rg lines = lines containing the text, code examples and all.',
  );
  if (symbolRows.length > 0) {
    console.log(`\ndsh_symbols on the generated ${NOTES}-note vault (warm index, median of ${RUNS}, shaped first page of 50)\n`);
    const h = ['what', 'symbols', 'median'];
    const w = h.map((x, i) => Math.max(x.length, ...symbolRows.map((r) => r[i]!.length)));
    const l = (cells: string[]) => cells.map((c, i) => c.padEnd(w[i]!)).join('  ');
    console.log(l(h));
    console.log(w.map((x) => '-'.repeat(x)).join('  '));
    for (const r of symbolRows) console.log(l(r));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
