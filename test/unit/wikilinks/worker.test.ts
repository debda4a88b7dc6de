// The wiki-link index off the calling thread: notes parsed in a worker thread give the same parse as
// on the thread (foam-docs, notes of many pieces), notes over the limits are indexed partly and
// say so, a worker that crashes, runs out of time or is disposed fails the parse instead of hanging
// it, and neither an 8 MiB note nor a 10 000-note vault holds the thread long (a hang detector with
// a wide margin: the probe ticks every 10 ms).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LspService } from '../../../src/lsp/service';
import { isLspError } from '../../../src/lsp/types';
import { MdLinksProvider } from '../../../src/lsp/wikilinks/provider';
import { MdLinksFeatures } from '../../../src/lsp/wikilinks/features';
import { NodeWorkspaceFs } from '../../../src/lsp/wikilinks/nodeFs';
import { inlineNoteParser, NoteReadError } from '../../../src/lsp/wikilinks/noteParser';
import { NOTE_LIMITS, parseNote } from '../../../src/lsp/wikilinks/parse';
import { PIECE_ITEMS } from '../../../src/lsp/wikilinks/notePieces';
import { TRANSFER_MIN_BYTES, WorkerNoteParser } from '../../../src/lsp/wikilinks/workerNoteParser';
import { pathToFileUri } from '../../../src/lsp/uri';
import { within } from '../../helpers/wait';
import { mkfifo, releaseFifo } from '../../helpers/files';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';
import { noteParseWorkerEntry } from '../../helpers/workerEntry';
import { bigHeadingsNote, generateVault, notePath } from '../../bench/vault';
import { makeVaultDir } from '../../helpers/wikiVault';

const FOAM_DOCS = path.resolve(__dirname, '../../fixtures/foam-docs');
/** Longest the thread may be held at once, in ms: a hang detector, 4x the host test's goal of 200 ms for a loaded 2-core machine. */
const HOLD_LIMIT_MS = 800;

function markdownFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(md|markdown)$/.test(f)).map((f) => path.join(dir, f));
}

describe('wiki links: notes parsed in a worker thread', function () {
  this.timeout(300_000);
  let parser: WorkerNoteParser;
  before(() => {
    parser = new WorkerNoteParser({ entry: noteParseWorkerEntry() });
  });
  after(() => parser.dispose());

  it('every foam-docs note parses the same in the worker as on the thread (limits on and off)', async () => {
    const files = markdownFiles(FOAM_DOCS);
    assert.ok(files.length > 50, `foam-docs has ${files.length} notes`);
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const limits of [NOTE_LIMITS, { maxChars: Infinity, maxItems: Infinity }]) {
        const options = { aliasOrder: 'target-first' as const, limits };
        assert.deepStrictEqual(await parser.parse(text, options), parseNote(text, options), path.relative(FOAM_DOCS, f));
      }
    }
  });

  it('a note given as its UTF-8 bytes is decoded in the worker: the same parse, a leading BOM dropped', async () => {
    const text = '---\ntitle: Café 😀\n---\n# Héading\n[[naïve note|alias]] and [[日本]] ^blk\n';
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')]);
    const options = { aliasOrder: 'target-first' as const, limits: NOTE_LIMITS };
    const fromBytes = await parser.parse(bytes, options);
    assert.deepStrictEqual(fromBytes, parseNote(text, options));
    assert.equal(fromBytes.links[0]?.target, 'naïve note');
    assert.deepStrictEqual(await inlineNoteParser.parse(bytes, options), fromBytes);
  });

  it("a note named by its file is read in the worker (the navigation read's rules) and parsed there; a read that fails rejects with the read's code, nothing parsed", async () => {
    const dir = makeVaultDir({ 'a.md': '\ufeff# Title\n[[b]] ^blk\n', 'sub/c.md': 'c\n' });
    const outside = makeVaultDir({ 'o.md': 'o\n' });
    try {
      const options = { aliasOrder: 'target-first' as const, limits: NOTE_LIMITS };
      const parsed = await parser.parseFile({ path: path.join(dir, 'a.md') }, options);
      assert.deepStrictEqual(parsed, parseNote('# Title\n[[b]] ^blk\n', options));
      assert.deepStrictEqual(await inlineNoteParser.parseFile!({ path: path.join(dir, 'a.md') }, options), parsed);
      const fails = async (file: { path: string; insideFolders?: string[] }, code: string, message: RegExp) => {
        for (const p of [parser, inlineNoteParser]) {
          await assert.rejects(
            p.parseFile!(file, options),
            (e: NoteReadError) => e instanceof NoteReadError && e.code === code && message.test(e.message),
          );
        }
      };
      await fails({ path: path.join(dir, 'missing.md') }, 'ENOENT', /no such file/);
      await fails({ path: path.join(dir, 'sub') }, 'not_regular_file', /is a folder|regular files only/);
      // The worker's read blocks its thread: a FIFO must still be refused, not waited on.
      const pipe = mkfifo(path.join(dir, 'pipe.md'));
      try {
        await within(5000, 'the worker reading a FIFO note', fails({ path: pipe }, 'not_regular_file', /is a FIFO/));
      } finally {
        releaseFifo(pipe);
      }
      fs.symlinkSync('/proc/self/environ', path.join(dir, 'env.md'));
      await fails({ path: path.join(dir, 'env.md') }, 'pseudo_file', /under \/proc/);
      fs.symlinkSync(path.join(outside, 'o.md'), path.join(dir, 'link.md'));
      await fails({ path: path.join(dir, 'link.md'), insideFolders: [dir] }, 'outside_workspace', /is outside the workspace/);
      assert.equal(
        (await parser.parseFile({ path: path.join(dir, 'link.md') }, options)).lineCount,
        2,
        'without folders a file anywhere is read',
      );
      // The worker still answers after failed reads.
      assert.deepStrictEqual(
        await parser.parseFile({ path: path.join(dir, 'sub/c.md'), insideFolders: [dir] }, options),
        parseNote('c\n', options),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a vault indexed with the worker parser: no note is read on the calling thread, deleted and unreadable notes leave the index', async () => {
    const dir = makeVaultDir({ 'a.md': '[[b]] [[c]]\n', 'b.md': 'b\n', 'c.md': 'c\n' });
    const fsCounting = new (class extends NodeWorkspaceFs {
      reads = 0;
      override readFile(uri: string) {
        this.reads++;
        return super.readFile(uri);
      }
    })({ workspaceFolders: [dir] });
    const skipped: string[] = [];
    const provider = new MdLinksProvider(fsCounting, { parser, onSkip: (_uri, message) => skipped.push(message) });
    const service = new LspService();
    service.registerProvider(provider);
    const ws = pathToFileUri(dir);
    const definition = async (character: number) => {
      const r = await service.query(
        { operation: 'goToDefinition', uri: pathToFileUri(path.join(dir, 'a.md')), position: { line: 0, character }, workspaceUri: ws },
        new AbortController().signal,
      );
      return r.kind === 'locations' ? r.locations.map((l) => path.basename(l.uri)) : [];
    };
    try {
      assert.deepEqual(await definition(2), ['b.md']);
      fs.rmSync(path.join(dir, 'c.md'));
      await provider.onFileChanged(pathToFileUri(path.join(dir, 'c.md')));
      fs.writeFileSync(path.join(dir, 'b.md'), 'b changed\n');
      await provider.onFileChanged(pathToFileUri(path.join(dir, 'b.md')));
      assert.deepEqual(await definition(8), ['a.md'], 'the deleted note left: [[c]] is unresolved (its own place)');
      fs.rmSync(path.join(dir, 'b.md'));
      fs.mkdirSync(path.join(dir, 'b.md'));
      await provider.onFileChanged(pathToFileUri(path.join(dir, 'b.md')));
      assert.deepEqual(await definition(2), ['a.md'], 'a note turned into a folder left the index');
      assert.deepEqual(skipped, [], 'the folder is walked as a folder, not skipped as an unreadable note');
      assert.equal(fsCounting.reads, 0, 'every note was read in the worker');
    } finally {
      provider.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a big note read as bytes is handed to the worker, not copied: its buffer is detached, the parse is the same; small bytes and strings are copied', async () => {
    const text = bigHeadingsNote(256 * 1024).replace('# h\n', '# Title [[link]]\n');
    const options = { aliasOrder: 'target-first' as const, limits: NOTE_LIMITS };
    // As a file read gives them: a buffer one byte longer than the file, the bytes a view from 0.
    const file = Buffer.allocUnsafe(Buffer.byteLength(text) + 1);
    const bytes = file.subarray(0, file.write(text));
    const parsed = await parser.parse(bytes, options);
    assert.equal(bytes.byteLength, 0, 'the bytes were handed over (detached), not copied');
    assert.deepStrictEqual(parsed, parseNote(text, options));
    const small = Buffer.from('# Small [[x]]\n'); // from Node's shared pool of small Buffers
    assert.deepStrictEqual(await parser.parse(small, options), parseNote('# Small [[x]]\n', options));
    assert.equal(small.toString(), '# Small [[x]]\n', 'small bytes stay usable');
    assert.equal(TRANSFER_MIN_BYTES, 64 * 1024);
  });

  it('a parse of many pieces arrives whole and in order; alias order is passed on', async () => {
    const text = [
      '---',
      'title: T',
      'aliases: [x, y]',
      '---',
      ...Array.from({ length: 3 * PIECE_ITEMS }, (_, i) => `## H${i}\n[[a${i}|b${i}]] \`c${i}\` p ^id${i}`),
      '',
    ].join('\n');
    for (const aliasOrder of ['target-first', 'alias-first'] as const) {
      const options = { aliasOrder, limits: NOTE_LIMITS };
      const inWorker = await parser.parse(text, options);
      assert.ok(inWorker.links.length + inWorker.headings.length + inWorker.blocks.length + inWorker.ignored.length > 10 * PIECE_ITEMS);
      assert.deepStrictEqual(inWorker, parseNote(text, options));
    }
  });

  it('a note over the limits is parsed partly, in whole lines, and says so; lineCount is the whole note', async () => {
    const big = bigHeadingsNote(1024 * 1024);
    const byItems = await parser.parse(big, { aliasOrder: 'target-first', limits: NOTE_LIMITS });
    assert.deepEqual(byItems.partial, { indexedLines: NOTE_LIMITS.maxItems, reason: 'items' });
    assert.equal(byItems.headings.length, NOTE_LIMITS.maxItems);
    assert.equal(byItems.lineCount, 262_145);
    const prose = 'plain prose [[a]] here\r\n'.repeat(50_000); // 1.2 M characters, 50 000 links
    const bySize = await parser.parse(prose, { aliasOrder: 'target-first', limits: { maxChars: 100_000, maxItems: Infinity } });
    assert.equal(bySize.partial?.reason, 'size');
    assert.equal(bySize.partial?.indexedLines, Math.floor(100_000 / 24));
    assert.equal(bySize.links.length, bySize.partial?.indexedLines);
    assert.equal(bySize.lineCount, 50_001);
  });

  it('a worker that runs out of memory fails its parse with an error, and the next parse gets a new worker', async () => {
    const small = new WorkerNoteParser({
      entry: noteParseWorkerEntry(),
      resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 },
    });
    try {
      const huge = bigHeadingsNote(8 * 1024 * 1024);
      await assert.rejects(
        within(
          120_000,
          'the parse in a worker out of memory',
          small.parse(huge, { aliasOrder: 'target-first', limits: { maxChars: Infinity, maxItems: Infinity } }),
        ),
        /note parser's worker thread (failed|exited)/,
      );
      assert.equal(small.running, false);
      const ok = await within(
        60_000,
        'a parse after the crash',
        small.parse('# t\n[[a]]\n', { aliasOrder: 'target-first', limits: NOTE_LIMITS }),
      );
      assert.equal(ok.links.length, 1);
    } finally {
      small.dispose();
    }
  });

  it('a parse over its time limit fails with an error saying so; later parses work', async () => {
    const slow = new WorkerNoteParser({ entry: noteParseWorkerEntry(), timeoutMs: 300 });
    try {
      await slow.parse('warm up\n', { aliasOrder: 'target-first', limits: NOTE_LIMITS });
      const long = slow.parse(bigHeadingsNote(4 * 1024 * 1024), {
        aliasOrder: 'target-first',
        limits: { maxChars: Infinity, maxItems: Infinity },
      });
      const next = slow.parse('# t\n[[a]]\n', { aliasOrder: 'target-first', limits: NOTE_LIMITS });
      await assert.rejects(within(30_000, 'the slow parse', long), /took longer than 300 ms: the note parser's worker thread was stopped/);
      assert.equal((await within(30_000, 'the parse queued behind it', next)).links.length, 1);
    } finally {
      slow.dispose();
    }
  });

  it('dispose rejects every parse not done and stops the worker', async () => {
    const p = new WorkerNoteParser({ entry: noteParseWorkerEntry() });
    const a = p.parse(bigHeadingsNote(1024 * 1024), { aliasOrder: 'target-first', limits: NOTE_LIMITS });
    const b = p.parse('[[x]]', { aliasOrder: 'target-first', limits: NOTE_LIMITS });
    await new Promise((r) => setTimeout(r, 50));
    p.dispose();
    await assert.rejects(within(5000, 'the parse in progress', a), /disposed/);
    await assert.rejects(within(5000, 'the queued parse', b), /disposed/);
    await assert.rejects(p.parse('[[x]]', { aliasOrder: 'target-first', limits: NOTE_LIMITS }), /disposed/);
    assert.equal(p.running, false);
  });

  it('a note the parser fails on still exists (links to it resolve), indexed partly, and is reported', async () => {
    const dir = makeVaultDir({ 'a.md': '[[b]]\n', 'b.md': '# B\n[[a]]\n' });
    const skipped: string[] = [];
    const failing = new WorkerNoteParser({ entry: path.join(dir, 'no-such-worker.js') });
    const provider = new MdLinksProvider(new NodeWorkspaceFs(), { parser: failing, onSkip: (u) => skipped.push(path.basename(u)) });
    try {
      const index = await within(30_000, 'the build with a failing parser', provider.index(pathToFileUri(dir)));
      assert.deepEqual(skipped.sort(), ['a.md', 'b.md']);
      assert.equal(index.note('b.md')?.parsed.partial?.reason, 'parser-failed');
      const diagnostics = await new MdLinksFeatures(() => provider).workspaceDiagnostics({
        workspaceUri: pathToFileUri(dir),
        signal: new AbortController().signal,
      });
      assert.deepEqual(diagnostics.diagnostics, []);
      assert.match(
        diagnostics.note ?? '',
        /2 note\(s\) indexed partly: .*nothing of its 0 lines is indexed \(the note parser failed on it/,
      );
    } finally {
      provider.dispose();
      failing.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('wiki links: the thread stays free with big notes and big vaults', function () {
  this.timeout(600_000);
  let dir: string;
  let parser: WorkerNoteParser;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-wiki-big-')));
    parser = new WorkerNoteParser({ entry: noteParseWorkerEntry() });
  });
  after(() => {
    parser.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an 8 MiB note: indexing, navigation, its outline and diagnostics never hold the thread long, and say "indexed partly"', async () => {
    fs.writeFileSync(path.join(dir, 'a.md'), '[[big]] and [[big#h]]\n');
    const provider = new MdLinksProvider(new NodeWorkspaceFs(), { parser });
    const service = new LspService();
    service.registerProvider(provider);
    const features = new MdLinksFeatures(() => provider);
    const ws = pathToFileUri(dir);
    const ctx = { workspaceUri: ws, signal: new AbortController().signal };
    try {
      await provider.index(ws);
      fs.writeFileSync(path.join(dir, 'big.md'), bigHeadingsNote());
      const bigUri = pathToFileUri(path.join(dir, 'big.md'));
      const run = await withLagProbe(async () => {
        await provider.onFileChanged(bigUri);
        const def = await service.query(
          {
            operation: 'goToDefinition',
            uri: pathToFileUri(path.join(dir, 'a.md')),
            position: { line: 0, character: 3 },
            workspaceUri: ws,
          },
          ctx.signal,
        );
        const refs = await service.query(
          { operation: 'findReferences', uri: bigUri, position: { line: 5, character: 0 }, workspaceUri: ws },
          ctx.signal,
        );
        const far = await service
          .query({ operation: 'goToDefinition', uri: bigUri, position: { line: 1_000_000, character: 0 }, workspaceUri: ws }, ctx.signal)
          .catch((e: unknown) => e);
        const outline = await features.documentSymbols(bigUri, 'markdown', ctx);
        const diagnostics = await features.documentDiagnostics(bigUri, 'markdown', ctx);
        return { def, refs, far, outline, diagnostics };
      });
      const { def, refs, far, outline, diagnostics } = run.result;
      assert.ok(run.maxHeldMs < HOLD_LIMIT_MS, `the thread was ${heldText(run)} (limit ${HOLD_LIMIT_MS})`);
      assert.equal(def.kind === 'locations' && def.locations[0]?.uri, bigUri);
      assert.equal(refs.kind === 'locations' && refs.locations.length, 3, 'the declaration and the two links of a.md');
      assert.ok(isLspError(far) && far.code === 'unsupported', String(far));
      assert.match((far as Error).message, /big\.md: lines 1–20000 of 2097153 indexed .*after line 20000 are not known/);
      assert.equal(outline.length, NOTE_LIMITS.maxItems + 1);
      assert.match(outline.at(-1)!.name, /^\(indexed partly: big\.md: lines 1–20000 of 2097153 indexed/);
      assert.match(diagnostics.note ?? '', /indexed partly/);
    } finally {
      provider.dispose();
    }
  });

  it('a big note asked about before its file event reaches the index goes to the parser as bytes (not decoded on this thread) and is indexed', async () => {
    const sub = path.join(dir, 'early');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'a.md'), '[[big]]\n');
    const given: string[] = [];
    const recording = {
      parse: (source: string | Uint8Array, options: Parameters<WorkerNoteParser['parse']>[1]) => (
        given.push(typeof source === 'string' ? 'text' : 'bytes'),
        parser.parse(source, options)
      ),
    };
    const provider = new MdLinksProvider(new NodeWorkspaceFs(), { parser: recording });
    const features = new MdLinksFeatures(() => provider);
    const ws = pathToFileUri(sub);
    try {
      await provider.index(ws);
      given.length = 0;
      fs.writeFileSync(path.join(sub, 'big.md'), bigHeadingsNote());
      const answer = await features.documentDiagnostics(pathToFileUri(path.join(sub, 'big.md')), 'markdown', {
        workspaceUri: ws,
        signal: new AbortController().signal,
      });
      assert.deepEqual(given, ['bytes']);
      assert.match(answer.note ?? '', /big\.md: lines 1–20000 of 2097153 indexed/);
    } finally {
      provider.dispose();
    }
  });

  it('a 10 000-note vault: the build, workspace diagnostics and a symbol search never hold the thread long', async () => {
    const vault = path.join(dir, 'vault');
    fs.mkdirSync(vault);
    generateVault(vault, 10_000);
    const provider = new MdLinksProvider(new NodeWorkspaceFs(), { parser });
    const features = new MdLinksFeatures(() => provider);
    const ws = pathToFileUri(vault);
    const ctx = { workspaceUri: ws, signal: new AbortController().signal };
    try {
      const run = await withLagProbe(async () => {
        const index = await provider.index(ws);
        const diagnostics = await features.workspaceDiagnostics(ctx);
        const symbols = await features.workspaceSymbols('note-0123', ctx);
        const outline = await features.documentSymbols(pathToFileUri(path.join(vault, notePath(1234))), 'markdown', ctx);
        return { stats: index.stats(), diagnostics, symbols, outline };
      });
      const { stats, diagnostics, symbols, outline } = run.result;
      assert.ok(run.maxHeldMs < HOLD_LIMIT_MS, `the thread was ${heldText(run)} (limit ${HOLD_LIMIT_MS})`);
      assert.equal(stats.notes, 10_000);
      assert.equal(stats.links, 60_000);
      assert.deepEqual(
        [diagnostics.diagnostics.length, diagnostics.note],
        [0, undefined],
        'every generated link resolves; no note is partly indexed',
      );
      assert.ok(symbols.length >= 10 && symbols.some((s) => s.name === 'note-01234'), symbols.map((s) => s.name).join(', '));
      assert.deepEqual(
        outline.map((s) => s.name),
        ['Note 1234'],
      );
    } finally {
      provider.dispose();
    }
  });
});
