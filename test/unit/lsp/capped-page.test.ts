// Lists of files in paged answers stay bounded (src/lsp/pageSummary.ts `shapePage`, used by
// shapeLocations, shapeDiagnostics and shapeWorkspaceSymbols): at most 100 files and 32 KiB of
// JSON per list, the files left out counted in `moreFiles`, and a note saying how to see them.
// Real files in a temp workspace, read for columns and previews as the tools read them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DETAIL_MAX_UNITS, NAME_MAX_UNITS } from '../../../src/lsp/features/present';
import { shapeOutline, shapeWorkspaceSymbols } from '../../../src/lsp/features/shapeSymbols';
import { DIAGNOSTIC_MESSAGE_MAX_UNITS, shapeDiagnostics } from '../../../src/lsp/features/shapeDiagnostics';
import type { DiagnosticItem, SymbolItem } from '../../../src/lsp/features/types';
import { capList, capNames, fitPage, MAX_LISTED_FILES, MAX_LISTED_FILES_BYTES } from '../../../src/lsp/pageSummary';
import { splitLines } from '../../../src/lsp/position';
import { shapeLocations } from '../../../src/lsp/shapeLocations';
import type { NavLocation } from '../../../src/lsp/types';
import { fileUriToPath } from '../../../src/lsp/uri';
import { TOOL_OUTPUT_CAP_BYTES } from '../../../src/common/toolResultCap';
import { FeatureRegistry } from '../../../src/lsp/features/registry';
import { gatherWorkspaceDiagnostics } from '../../../src/lsp/features/workspaceDiagnostics';
import { gatherWorkspaceSymbols } from '../../../src/lsp/features/workspaceSymbols';
import { fileNotFoundError } from '../../../src/lsp/sourceErrors';
import { LspService } from '../../../src/lsp/service';
import { SOURCE_TEXT_MAX_UNITS } from '../../../src/lsp/sourceErrors';
import { Vault } from '../../helpers/wikiVault';

const R = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } });
const readLines = async (uri: string) => {
  try {
    return splitLines(fs.readFileSync(fileUriToPath(uri), 'utf8'));
  } catch {
    return undefined;
  }
};

describe('capped pages: lists of files stay bounded', () => {
  let dir: string;
  let root: string;
  const uris: string[] = [];
  const nm: string[] = [];
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-capped-')));
    root = pathToFileURL(dir).href;
    for (let i = 0; i < 400; i++) {
      const p = path.join(dir, 'src', `f${String(i).padStart(3, '0')}.ts`);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, `export const v${i} = ${i};\nv${i};\n`);
      uris.push(pathToFileURL(p).href);
    }
    for (let i = 0; i < 150; i++) {
      const p = path.join(dir, 'node_modules', 'lib', `m${String(i).padStart(3, '0')}.d.ts`);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, `v0;\n`);
      nm.push(pathToFileURL(p).href);
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('references in 400 files: the first 100 files listed, 300 counted in moreFiles, with a note; the collapsed node_modules group too', async () => {
    const locations: NavLocation[] = [
      { uri: uris[0]!, range: R(0), isDeclaration: true },
      ...uris.map((uri) => ({ uri, range: R(1) })),
      ...nm.map((uri) => ({ uri, range: R(0) })),
    ];
    const shaped = await shapeLocations(locations, { operation: 'findReferences', resolvedWorkspaceUri: root, readLines });
    assert.equal(shaped.total, 401);
    assert.equal(shaped.files.length, MAX_LISTED_FILES);
    assert.equal(shaped.moreFiles, 300);
    assert.deepEqual(shaped.files[0], { path: 'src/f000.ts', count: 2 });
    assert.match(shaped.filesNote ?? '', /100 of 400 files.*300 more.*offset/);
    assert.equal(
      shaped.summary,
      'showing 1–50 of 401 in 400 files; next page: offset 50; 150 in node_modules not listed (counted in collapsed)',
    );
    assert.equal(shaped.collapsed?.nodeModules?.count, 150);
    assert.equal(shaped.collapsed?.nodeModules?.files.length, MAX_LISTED_FILES);
    assert.equal(shaped.collapsed?.nodeModules?.moreFiles, 50);
    assert.ok(Buffer.byteLength(JSON.stringify(shaped.files)) <= MAX_LISTED_FILES_BYTES);
  });

  it('diagnostics in 400 files: per-file counts of the first 100 files, moreFiles 300, a note naming filePath and offset', async () => {
    const items: DiagnosticItem[] = uris.map((uri, i) => ({
      uri,
      range: R(0),
      severity: i % 2 ? 'warning' : 'error',
      message: `problem ${i}`,
    }));
    const shaped = await shapeDiagnostics(items, { roots: [root], offset: 0, limit: 20, readLines });
    assert.equal(shaped.total, 400);
    assert.equal(shaped.files.length, MAX_LISTED_FILES);
    assert.equal(shaped.moreFiles, 300);
    assert.match(shaped.filesNote ?? '', /filePath/);
    assert.deepEqual(shaped.counts, { error: 200, warning: 200, information: 0, hint: 0 }, 'the counts cover every file');
  });

  it('workspace symbols in 400 files: files bounded the same way', async () => {
    const scored = uris.map((uri, i): { symbol: SymbolItem; score: number } => ({
      symbol: { name: `v${i}`, kind: 'Constant', uri, range: R(0), selectionRange: R(0) },
      score: 1,
    }));
    const shaped = await shapeWorkspaceSymbols(scored, { roots: [root], offset: 0, limit: 50, readLines });
    assert.equal(shaped.total, 400);
    assert.equal(shaped.files.length, MAX_LISTED_FILES);
    assert.equal(shaped.moreFiles, 300);
    assert.ok(shaped.filesNote);
  });

  it('long paths: the list stops at 32 KiB of JSON before 100 files, and counts the rest', async () => {
    const deep = path.join(dir, 'deep', 'x'.repeat(200), 'y'.repeat(200));
    fs.mkdirSync(deep, { recursive: true });
    const long: string[] = [];
    for (let i = 0; i < 90; i++) {
      const p = path.join(deep, `${'z'.repeat(100)}${i}.ts`);
      fs.writeFileSync(p, 'x;\n');
      long.push(pathToFileURL(p).href);
    }
    const items: DiagnosticItem[] = long.map((uri) => ({ uri, range: R(0), severity: 'error', message: 'bad' }));
    const shaped = await shapeDiagnostics(items, { roots: [root], offset: 0, limit: 10, readLines });
    const bytes = Buffer.byteLength(JSON.stringify(shaped.files));
    assert.ok(bytes <= MAX_LISTED_FILES_BYTES, `${bytes} bytes`);
    assert.ok(shaped.files.length < 90 && shaped.files.length > 0, `${shaped.files.length} files`);
    assert.equal(shaped.files.length + (shaped.moreFiles ?? 0), 90);
  });

  it('a short list is unchanged: no moreFiles, no note', async () => {
    const items: DiagnosticItem[] = uris.slice(0, 3).map((uri) => ({ uri, range: R(0), severity: 'error', message: 'bad' }));
    const shaped = await shapeDiagnostics(items, { roots: [root], offset: 0, limit: 10, readLines });
    assert.equal(shaped.files.length, 3);
    assert.equal(shaped.moreFiles, undefined);
    assert.equal(shaped.filesNote, undefined);
  });
});

describe('capped lists: never over their byte bound', () => {
  it('a first entry larger than the bound alone is left out and counted, not listed over the bound', () => {
    const huge = { path: 'x'.repeat(1000), count: 1 };
    const capped = capList([huge, { path: 'a', count: 1 }], 10, 100);
    assert.deepEqual(capped, { listed: [], more: 2 });
  });

  it('entries are kept in order while the list fits; the first that does not fit ends it, the rest counted', () => {
    const items = ['aaaa', 'b'.repeat(200), 'c'];
    const capped = capList(items, 10, 20);
    assert.deepEqual(capped, { listed: ['aaaa'], more: 2 });
    assert.ok(Buffer.byteLength(JSON.stringify(capped.listed)) <= 20);
  });

  it('the bound counts the brackets, commas and UTF-8 bytes: a list exactly at the bound is kept whole', () => {
    const items = ['é', 'é']; // each "é" is 4 bytes of JSON; ["é","é"] is 2 + 4 + 1 + 4 = 11
    assert.deepEqual(capList(items, 10, 11), { listed: ['é', 'é'], more: 0 });
    assert.deepEqual(capList(items, 10, 10), { listed: ['é'], more: 1 });
    assert.deepEqual(capList(items, 10, 1), { listed: [], more: 2 }, 'a bound below the empty list keeps nothing');
  });
});

describe('capped names: cut, then listed within the bounds', () => {
  it('each name is cut to the bound in UTF-16 code units, never inside a surrogate pair, and flagged', () => {
    const capped = capNames(['ab', `x${'😀'.repeat(10)}`, 'c'.repeat(4)], 10, 4, 1000);
    assert.deepEqual(capped, { listed: ['ab', 'x😀…', 'cccc'], more: 0, cut: true });
    assert.deepEqual(capNames(['ab', 'cd'], 10, 4, 1000), { listed: ['ab', 'cd'], more: 0, cut: false });
  });

  it('a million names: only the first few are looked at; the bytes bound counts JSON escapes', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => `n${i}`);
    assert.deepEqual(capNames(many, 3, 10, 1000), { listed: ['n0', 'n1', 'n2'], more: 999_997, cut: false });
    const controls = Array.from({ length: 5 }, () => '\u0001'.repeat(10)); // 60 bytes of JSON each, quotes included 62
    const capped = capNames(controls, 5, 10, 2 + 62 + 1 + 62);
    assert.deepEqual([capped.listed.length, capped.more], [2, 3]);
    assert.ok(Buffer.byteLength(JSON.stringify(capped.listed)) <= 127);
  });
});

describe('capped pages: a whole answer within the tool result cap', () => {
  // An answer of `limit` entries of 1000 bytes each, with the caller's own fields around the page.
  const build = (head: number) => async (limit: number) => ({
    head: 'h'.repeat(head),
    entries: Array.from({ length: limit }, () => 'e'.repeat(998)),
    ...(limit < 500 ? { nextOffset: limit } : {}),
  });

  it('halves the page until the whole answer, its own fields and the note included, fits; the note names the cap', async () => {
    const answer = await fitPage(500, TOOL_OUTPUT_CAP_BYTES, build(20_000)); // 250 entries and 20 000 bytes of its own fields: over 256 KiB
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes <= TOOL_OUTPUT_CAP_BYTES, `${bytes} bytes`);
    assert.equal(answer.entries.length, 125);
    assert.equal(answer.capNote, 'the page was cut to 125 entries to stay within the 256 KiB tool result cap; continue with offset 125');
  });

  it('the note says the bound it was held to, in bytes when it is not whole KiB; an answer that fits has no note', async () => {
    const answer = await fitPage(500, 100_000, build(0));
    assert.ok(Buffer.byteLength(JSON.stringify(answer)) <= 100_000);
    assert.match(answer.capNote ?? '', /within the 100000 bytes tool result cap/);
    assert.equal((await fitPage(10, TOOL_OUTPUT_CAP_BYTES, build(0))).capNote, undefined);
  });
});

describe('capped pages: text from a source is cut to its bound and flagged', () => {
  const big = (c: string) => c.repeat(1_000_000);
  const at = { uri: 'file:///ws/a.ts', range: R(0), selectionRange: R(0) };
  const none = async () => undefined;

  it('a symbol with a megabyte name, detail and container: each cut, the symbol flagged cut; a short one untouched', async () => {
    const scored = [
      { symbol: { ...at, name: big('n'), kind: 'Function', detail: big('d'), containerName: big('c') } as SymbolItem, score: 2 },
      {
        symbol: { ...at, name: 'ok', kind: 'Function', detail: 'x', containerName: 'y', range: R(1), selectionRange: R(1) } as SymbolItem,
        score: 1,
      },
    ];
    const shaped = await shapeWorkspaceSymbols(scored, { roots: ['file:///ws'], offset: 0, limit: 10, readLines: none });
    const [cut, ok] = shaped.symbols;
    assert.equal(cut!.name, `${'n'.repeat(NAME_MAX_UNITS)}…`);
    assert.equal(cut!.detail, `${'d'.repeat(DETAIL_MAX_UNITS)}…`);
    assert.equal(cut!.containerName, `${'c'.repeat(NAME_MAX_UNITS)}…`);
    assert.equal(cut!.cut, true);
    assert.deepEqual([ok!.name, ok!.detail, ok!.containerName, ok!.cut], ['ok', 'x', 'y', undefined]);
    const outline = await shapeOutline([scored[0]!.symbol], { roots: ['file:///ws'], offset: 0, limit: 10, readLines: none });
    assert.equal(outline.outline[0]!.cut, true);
    assert.ok(Buffer.byteLength(JSON.stringify(outline)) < 4096);
  });

  it('a diagnostic with a megabyte message, source and code: each cut, flagged cut', async () => {
    const items: DiagnosticItem[] = [
      { ...at, severity: 'error', message: `${big('m')}`, source: big('s'), code: big('k') },
      { ...at, range: R(1), severity: 'error', message: 'short', source: 'ts', code: '2322' },
    ];
    const shaped = await shapeDiagnostics(items, { roots: ['file:///ws'], offset: 0, limit: 10, readLines: none });
    const [cut, ok] = shaped.diagnostics;
    assert.equal(cut!.message, `${'m'.repeat(DIAGNOSTIC_MESSAGE_MAX_UNITS)}…`);
    assert.equal(cut!.source, `${'s'.repeat(NAME_MAX_UNITS)}…`);
    assert.equal(cut!.code, `${'k'.repeat(NAME_MAX_UNITS)}…`);
    assert.equal(cut!.cut, true);
    assert.deepEqual([ok!.message, ok!.source, ok!.code, ok!.cut], ['short', 'ts', '2322', undefined]);
    assert.ok(Buffer.byteLength(JSON.stringify(shaped)) < 16 * 1024);
  });
});

describe('capped pages: what a failing source says is cut to its bound', () => {
  it('a source whose error or note is a megabyte: its report in sources keeps the start, cut with …', async () => {
    const service = new LspService();
    service.registerProvider({ id: 'loud', extensions: { '.ts': 'typescript' }, query: async () => ({ kind: 'hover', contents: null }) });
    service.registerProvider({ id: 'noisy', extensions: { '.js': 'javascript' }, query: async () => ({ kind: 'hover', contents: null }) });
    const registry = new FeatureRegistry(service);
    const huge = `server crashed: ${'x'.repeat(1_000_000)}`;
    registry.register('symbols', {
      id: 'loud',
      workspaceSymbols: async () => {
        throw new Error(huge);
      },
      documentSymbols: async () => [],
    });
    registry.register('diagnostics', {
      id: 'loud',
      documentDiagnostics: async () => {
        throw new Error(huge);
      },
      workspaceDiagnostics: async () => {
        throw new Error(huge);
      },
    });
    registry.register('diagnostics', {
      id: 'noisy',
      documentDiagnostics: async () => ({ diagnostics: [], freshness: 'unknown' }),
      workspaceDiagnostics: async () => ({ diagnostics: [], freshness: 'unknown', note: huge }),
    });
    const signal = new AbortController().signal;
    const symbols = await gatherWorkspaceSymbols(registry, 'a', undefined, ['file:///ws'], signal);
    assert.equal(symbols.sources[0]!.error, `server crashed: ${'x'.repeat(SOURCE_TEXT_MAX_UNITS - 16)}…`);
    const diagnostics = await gatherWorkspaceDiagnostics(registry, ['file:///ws'], signal);
    const byId = Object.fromEntries(diagnostics.sources.map((r) => [r.id, r]));
    assert.equal(byId.loud!.error, `server crashed: ${'x'.repeat(SOURCE_TEXT_MAX_UNITS - 16)}…`);
    assert.equal(byId.noisy!.note, `server crashed: ${'x'.repeat(SOURCE_TEXT_MAX_UNITS - 16)}…`);
  });

  it('a document that cannot be opened for a reason of a megabyte: the file_not_found message quotes the start of the reason, cut with …', () => {
    const error = fileNotFoundError('file:///ws/a.ts', new Error(`EIO: ${'x'.repeat(1_000_000)}`));
    assert.equal(error.code, 'file_not_found');
    assert.equal(error.message, `cannot open /ws/a.ts: EIO: ${'x'.repeat(SOURCE_TEXT_MAX_UNITS - 5)}…`);
  });
});

describe('capped pages: the candidates of an ambiguous wiki link', () => {
  it('a link matching 8 notes shows 5 candidates and counts 3 in moreCandidates', async () => {
    const folders = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const v = Vault.create({
      'index.md': '# Index\n\nSee [[dup]].\n',
      ...Object.fromEntries(folders.map((f) => [`${f}/dup.md`, `# ${f}\n`])),
    });
    try {
      const result = await v.queryAt('goToDefinition', 'index.md', 'dup');
      assert.equal(result.kind, 'locations');
      if (result.kind !== 'locations') return;
      const shaped = await shapeLocations(result.locations, {
        operation: 'goToDefinition',
        resolvedWorkspaceUri: result.resolvedWorkspaceUri,
        readLines,
      });
      const [shown] = shaped.locations;
      assert.equal(shown?.path, 'a/dup.md');
      assert.deepEqual(shown.candidates, ['a/dup.md', 'b/dup.md', 'c/dup.md', 'd/dup.md', 'e/dup.md']);
      assert.equal(shown.moreCandidates, 3);
    } finally {
      v.cleanup();
    }
  });
});
