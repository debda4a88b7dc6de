// The md-links provider's index and edges: built once, kept current by onFileChanged /
// onFileDeleted (queries never rescan), real paths, errors, cancellation, hover, path links.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeVaultDir, Vault } from '../../helpers/wikiVault';
import { until } from '../../helpers/wait';
import { LspService } from '../../../src/lsp/service';
import { LspError, LspResult } from '../../../src/lsp/types';
import { MdLinksProvider } from '../../../src/lsp/wikilinks/provider';
import { NodeWorkspaceFs } from '../../../src/lsp/wikilinks/nodeFs';
import { fileUriToPath, pathToFileUri } from '../../../src/lsp/uri';
import { WorkspaceFs } from '../../../src/lsp/wikilinks/workspaceFs';

/** The real Node file system, counting the calls that reach it. */
class CountingFs implements WorkspaceFs {
  readonly inner = new NodeWorkspaceFs();
  readFiles = 0;
  readDirectories = 0;
  readFile(uri: string) {
    this.readFiles++;
    return this.inner.readFile(uri);
  }
  readDirectory(uri: string) {
    this.readDirectories++;
    return this.inner.readDirectory(uri);
  }
  realUri(uri: string) {
    return this.inner.realUri(uri);
  }
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function vault(files: Record<string, string>, options = {}): Vault {
  const v = Vault.create(files, options);
  dirs.push(v.dir);
  return v;
}
function hoverText(r: LspResult): string | null {
  assert.equal(r.kind, 'hover');
  return r.kind === 'hover' ? r.contents : null;
}

describe('wiki links: index, updates and edges', () => {
  it('builds once: queries after the build read no directory and no note', async () => {
    const dir = makeVaultDir({ 'a.md': '[[b]] [[c]]\n', 'b.md': 'b\n', 'sub/c.md': 'c\n' });
    dirs.push(dir);
    const cfs = new CountingFs();
    const provider = new MdLinksProvider(cfs);
    const service = new LspService();
    service.registerProvider(provider);
    const ws = pathToFileUri(dir);
    const q = (operation: 'goToDefinition' | 'findReferences', rel: string, character: number) =>
      service.query({ operation, uri: pathToFileUri(path.join(dir, rel)), position: { line: 0, character }, workspaceUri: ws });
    await q('goToDefinition', 'a.md', 2);
    const afterBuild = { readFiles: cfs.readFiles, readDirectories: cfs.readDirectories };
    assert.deepEqual(afterBuild, { readFiles: 3, readDirectories: 2 });
    for (let i = 0; i < 20; i++) {
      await q('findReferences', 'b.md', 0);
      await q('goToDefinition', 'a.md', 8);
    }
    assert.deepEqual({ readFiles: cfs.readFiles, readDirectories: cfs.readDirectories }, afterBuild);
  });

  it('onFileChanged / onFileDeleted keep the index current (a new note is unseen until reported: no rescan)', async () => {
    const v = vault({ 'a.md': 'Link to [[new note]].\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 10)), ['a.md:1:9 unresolved(new note)']);
    fs.writeFileSync(path.join(v.dir, 'new note.md'), '# New\n');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 10)), ['a.md:1:9 unresolved(new note)'], 'not rescanned');
    await v.provider.onFileChanged(v.uri('new note.md'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 10)), ['new note.md:1:1']);

    // a changed note: its new links count
    fs.writeFileSync(path.join(v.dir, 'b.md'), 'Also [[new note]]\n');
    await v.provider.onFileChanged(v.uri('b.md'));
    assert.deepEqual(v.render(await v.query('findReferences', 'new note.md', 1, 1)), [
      'new note.md:1:1 declaration',
      'a.md:1:9',
      'b.md:1:6',
    ]);

    // unsaved editor text wins over the file on disk
    await v.provider.onFileChanged(v.uri('b.md'), 'nothing here\n\n\n[[New Note]]\n');
    const refs = await v.query('findReferences', 'new note.md', 1, 1);
    assert.ok(refs.kind === 'locations');
    assert.deepEqual(
      refs.locations.map((l) => [path.basename(fileUriToPath(l.uri)), l.range.start.line, l.range.start.character]),
      [
        ['new note.md', 0, 0],
        ['a.md', 0, 8],
        ['b.md', 3, 0],
      ],
    );

    // deleted: dangling again
    fs.rmSync(path.join(v.dir, 'new note.md'));
    await v.provider.onFileDeleted(v.uri('new note.md'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 10)), ['a.md:1:9 unresolved(new note)']);
  });

  it('a burst of edits given as a text function takes the text once, when the update runs: the last edit wins', async () => {
    const v = vault({ 'a.md': '# A\n', 'b.md': '' });
    await v.query('goToDefinition', 'a.md', 1, 1); // builds the index
    let taken = 0;
    let text = '';
    const edits: Array<Promise<void>> = [];
    for (let i = 1; i <= 20; i++) {
      text = `${'\n'.repeat(i)}[[a]]\n`; // the link moves down a line with each edit
      edits.push(
        v.provider.onFileChanged(v.uri('b.md'), () => {
          taken++;
          return text;
        }),
      );
    }
    await Promise.all(edits);
    assert.equal(taken, 1, 'the text was taken once for the whole burst');
    const refs = await v.query('findReferences', 'a.md', 1, 1);
    assert.ok(refs.kind === 'locations');
    assert.deepEqual(
      refs.locations.map((l) => [path.basename(fileUriToPath(l.uri)), l.range.start.line]),
      [
        ['a.md', 0],
        ['b.md', 20],
      ],
    );
  });

  it('a changed heading is found without re-reading the linking note', async () => {
    const v = vault({ 'n.md': '# N\n\n## Old\n', 'a.md': '[[n#New]]\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['n.md:1:1 anchorMissing']);
    fs.writeFileSync(path.join(v.dir, 'n.md'), '# N\n\nintro\n\n## New\n');
    await v.provider.onFileChanged(v.uri('n.md'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['n.md:5:1']);
  });

  it('deleting a folder removes every note under it; a changed file that vanished counts as deleted', async () => {
    const v = vault({ 'a.md': '[[x]] [[y]]\n', 'sub/x.md': 'x\n', 'sub/deeper/y.md': 'y\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 8)), ['sub/deeper/y.md:1:1']);
    fs.rmSync(path.join(v.dir, 'sub'), { recursive: true });
    await v.provider.onFileDeleted(v.uri('sub'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 2)), ['a.md:1:1 unresolved(x)']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 8)), ['a.md:1:7 unresolved(y)']);
    const w = vault({ 'a.md': '[[gone]]\n', 'gone.md': 'g\n' });
    assert.deepEqual(w.render(await w.query('goToDefinition', 'a.md', 1, 2)), ['gone.md:1:1']);
    fs.rmSync(path.join(w.dir, 'gone.md'));
    await w.provider.onFileChanged(w.uri('gone.md'));
    assert.deepEqual(w.render(await w.query('goToDefinition', 'a.md', 1, 2)), ['a.md:1:1 unresolved(gone)']);
  });

  it('a note queried before it was reported is read and added (a file created since the build)', async () => {
    const v = vault({ 'a.md': 'a\n' });
    await v.provider.index(v.rootUri);
    fs.writeFileSync(path.join(v.dir, 'late.md'), '[[a]]\n');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'late.md', 1, 2)), ['a.md:1:1']);
    assert.deepEqual(v.render(await v.query('findReferences', 'a.md', 1, 1)), ['a.md:1:1 declaration', 'late.md:1:1']);
  });

  it('returns the real path of the workspace, and accepts URIs through a symlinked workspace', async () => {
    const real = makeVaultDir({ 'a.md': '[[b]]\n', 'b.md': 'b\n' });
    dirs.push(real);
    const linkParent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-wiki-link-')));
    dirs.push(linkParent);
    const link = path.join(linkParent, 'vault link');
    fs.symlinkSync(real, link);
    const v = new Vault(link, {}, pathToFileUri(link));
    const r = await v.query('goToDefinition', 'a.md', 1, 2);
    assert.ok(r.kind === 'locations');
    assert.equal(r.resolvedWorkspaceUri, pathToFileUri(real));
    assert.equal(fileUriToPath(r.locations[0]!.uri), path.join(real, 'b.md'));
    assert.equal(v.render(r)[0], 'b.md:1:1');
    // updates through the symlinked path reach the same index
    fs.writeFileSync(path.join(real, 'c.md'), '[[b]]\n');
    await v.provider.onFileChanged(pathToFileUri(path.join(link, 'c.md')));
    assert.deepEqual(v.render(await v.query('findReferences', 'b.md', 1, 1)), ['b.md:1:1 declaration', 'a.md:1:1', 'c.md:1:1']);
  });

  it('a folder reported created (made or moved in, its files never reported) brings in every note and attachment under it', async () => {
    const v = vault({ 'a.md': '[[x]] [[y]] [[pic.png]]\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 2)), ['a.md:1:1 unresolved(x)']);
    fs.mkdirSync(path.join(v.dir, 'moved/deeper/node_modules'), { recursive: true });
    fs.writeFileSync(path.join(v.dir, 'moved/x.md'), 'x\n');
    fs.writeFileSync(path.join(v.dir, 'moved/deeper/y.md'), 'y\n');
    fs.writeFileSync(path.join(v.dir, 'moved/deeper/pic.png'), '');
    fs.writeFileSync(path.join(v.dir, 'moved/deeper/node_modules/z.md'), '[[x]]\n');
    await v.provider.onFileChanged(v.uri('moved'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 2)), ['moved/x.md:1:1']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 8)), ['moved/deeper/y.md:1:1']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 14)), ['moved/deeper/pic.png:1:1']);
    assert.deepEqual(
      v.render(await v.query('findReferences', 'moved/x.md', 1, 1)),
      ['moved/x.md:1:1 declaration', 'a.md:1:1'],
      'node_modules stays out',
    );
    // reported again (its files' own events after it): nothing doubles
    await v.provider.onFileChanged(v.uri('moved/x.md'));
    await v.provider.onFileChanged(v.uri('moved'));
    assert.deepEqual(v.render(await v.query('findReferences', 'moved/x.md', 1, 1)), ['moved/x.md:1:1 declaration', 'a.md:1:1']);
  });

  it('a folder reported created alone (`mkdir -p made/inner`): notes written into the folders inside it later are indexed, and their deletion, unreported; the watches end with the index', async () => {
    const skipped: string[] = [];
    const v = vault(
      { 'a.md': '[[late]] [[later]]\n' },
      { maxWatchedFolders: 2, onSkip: (_uri: string, message: string) => skipped.push(message) },
    );
    const index = await v.provider.index(v.rootUri);
    fs.mkdirSync(path.join(v.dir, 'made/inner'), { recursive: true });
    // A file watcher reports `made` (it watches `made` from then on), never `made/inner`.
    await v.provider.onFileChanged(v.uri('made'));
    fs.writeFileSync(path.join(v.dir, 'made/inner/late.md'), '# Late\n');
    // (Rendering a location reads its file: one deleted and still indexed renders as an error.)
    const resolved = (col: number) => async () => v.render(await v.query('goToDefinition', 'a.md', 1, col))[0];
    const settledTo = (col: number, want: string) => async () => (await resolved(col)().catch(() => undefined)) === want;
    await until('made/inner/late.md to be indexed', async () => (await resolved(3)()) === 'made/inner/late.md:1:1');
    // A folder made inside a watched one is watched too, and what is written into it is indexed.
    fs.mkdirSync(path.join(v.dir, 'made/inner/deeper'));
    fs.writeFileSync(path.join(v.dir, 'made/inner/deeper/later.md'), 'later\n');
    await until('made/inner/deeper/later.md to be indexed', async () => (await resolved(12)()) === 'made/inner/deeper/later.md:1:1');
    assert.equal(index.watchedFolders, 2);
    // Past the limit a folder is not watched, and that is told once.
    fs.mkdirSync(path.join(v.dir, 'made/inner/third'));
    await until('the limit to be told', () => skipped.some((m) => /not watched: the index already watches 2 folders/.test(m)));
    fs.rmSync(path.join(v.dir, 'made/inner'), { recursive: true });
    await until(
      'the deleted notes to leave the index',
      async () => (await settledTo(3, 'a.md:1:1 unresolved(late)')()) && settledTo(12, 'a.md:1:10 unresolved(later)')(),
    );
    assert.equal(index.watchedFolders, 0, 'the watches of the deleted folders ended');
    fs.mkdirSync(path.join(v.dir, 'made/again/inside'), { recursive: true });
    await v.provider.onFileChanged(v.uri('made/again'));
    assert.equal(index.watchedFolders, 1, "the folder the file watcher reported is its to watch; the one inside it is the index's");
    v.provider.dispose();
    assert.equal(index.watchedFolders, 0);
  });

  it('a folder reported created before the first query (no index yet): once the index is built, notes written later into the folders inside it are indexed', async () => {
    const v = vault({ 'a.md': '[[early]]\n' });
    fs.mkdirSync(path.join(v.dir, 'made early/inner'), { recursive: true });
    await v.provider.onFileChanged(v.uri('made early'));
    const index = await v.provider.index(v.rootUri);
    await until('the folder inside to be watched', () => index.watchedFolders === 1);
    fs.writeFileSync(path.join(v.dir, 'made early/inner/early.md'), 'e\n');
    await until(
      'made early/inner/early.md to be indexed',
      async () => v.render(await v.query('goToDefinition', 'a.md', 1, 3))[0] === 'made early/inner/early.md:1:1',
    );
  });

  it('a created folder named like a clone (`notes.wiki`, `me.github.io`) is walked like any folder: its notes, and those written later into the folders inside it', async () => {
    const v = vault({ 'a.md': '[[home]] [[post]] [[pic.png]]\n' });
    const index = await v.provider.index(v.rootUri);
    fs.mkdirSync(path.join(v.dir, 'notes.wiki'));
    fs.writeFileSync(path.join(v.dir, 'notes.wiki/home.md'), 'home\n');
    fs.mkdirSync(path.join(v.dir, 'me.github.io/_posts'), { recursive: true });
    fs.writeFileSync(path.join(v.dir, 'pic.png'), '');
    for (const created of ['notes.wiki', 'me.github.io', 'pic.png']) await v.provider.onFileChanged(v.uri(created));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['notes.wiki/home.md:1:1']);
    assert.deepEqual(
      v.render(await v.query('goToDefinition', 'a.md', 1, 22)),
      ['pic.png:1:1'],
      'a file with a common ending is an attachment',
    );
    assert.equal(index.watchedFolders, 1, 'me.github.io/_posts');
    fs.writeFileSync(path.join(v.dir, 'me.github.io/_posts/post.md'), 'post\n');
    await until(
      'the post to be indexed',
      async () => v.render(await v.query('goToDefinition', 'a.md', 1, 12))[0] === 'me.github.io/_posts/post.md:1:1',
    );
  });

  it('a created folder named like a note (`garden.md`, moved in) is walked like any folder, not skipped as an unreadable note', async () => {
    const v = vault({ 'a.md': '[[inside]]\n' });
    await v.provider.index(v.rootUri);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-garden-'));
    try {
      fs.mkdirSync(path.join(outside, 'garden.md'));
      fs.writeFileSync(path.join(outside, 'garden.md/inside.md'), 'inside\n');
      fs.renameSync(path.join(outside, 'garden.md'), path.join(v.dir, 'garden.md'));
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
    await v.provider.onFileChanged(v.uri('garden.md'));
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['garden.md/inside.md:1:1']);
  });

  it('a provider that replaces another (a setting changed) takes over the folders only the other one watched', async () => {
    const v = vault({ 'a.md': '[[later]]\n' });
    await v.provider.index(v.rootUri);
    fs.mkdirSync(path.join(v.dir, 'made/inner'), { recursive: true });
    await v.provider.onFileChanged(v.uri('made'));
    const next = new MdLinksProvider(new NodeWorkspaceFs());
    next.takeOverWatches(v.provider.watchedFolderUris());
    v.provider.dispose();
    const service = new LspService();
    service.registerProvider(next);
    const index = await next.index(v.rootUri);
    await until('made/inner to be watched by the new index', () => index.watchedFolders === 1);
    fs.writeFileSync(path.join(v.dir, 'made/inner/later.md'), 'later\n');
    const definition = async () =>
      v.render(
        await service.query(
          { operation: 'goToDefinition', uri: v.uri('a.md'), position: { line: 0, character: 3 }, workspaceUri: v.rootUri },
          new AbortController().signal,
        ),
      )[0];
    await until('made/inner/later.md to be indexed', async () => (await definition()) === 'made/inner/later.md:1:1');
    next.dispose();
  });

  it('a watched folder deleted and made again, or moved away and made again, is watched anew: notes written into either folder are indexed', async () => {
    const v = vault({ 'a.md': '[[n]] [[x]] [[y]]\n' });
    const index = await v.provider.index(v.rootUri);
    fs.mkdirSync(path.join(v.dir, 'made/inner/deep'), { recursive: true });
    fs.mkdirSync(path.join(v.dir, 'made/inner/r1'));
    await v.provider.onFileChanged(v.uri('made'));
    assert.equal(index.watchedFolders, 3);
    const resolvesTo = (col: number, want: string) => async () => v.render(await v.query('goToDefinition', 'a.md', 1, col))[0] === want;
    fs.rmSync(path.join(v.dir, 'made/inner/deep'), { recursive: true });
    fs.mkdirSync(path.join(v.dir, 'made/inner/deep'));
    fs.renameSync(path.join(v.dir, 'made/inner/r1'), path.join(v.dir, 'made/inner/r2'));
    fs.mkdirSync(path.join(v.dir, 'made/inner/r1'));
    // The events of the old folders come and go before these are written (a busy index handles them later).
    await new Promise((r) => setTimeout(r, 300));
    await index.settled();
    fs.writeFileSync(path.join(v.dir, 'made/inner/deep/n.md'), 'n\n');
    fs.writeFileSync(path.join(v.dir, 'made/inner/r1/x.md'), 'x\n');
    fs.writeFileSync(path.join(v.dir, 'made/inner/r2/y.md'), 'y\n');
    await until('n.md in the folder made again to be indexed', resolvesTo(3, 'made/inner/deep/n.md:1:1'));
    await until('x.md in the folder made again after a move to be indexed', resolvesTo(9, 'made/inner/r1/x.md:1:1'));
    await until('y.md in the moved folder to be indexed at its new place', resolvesTo(15, 'made/inner/r2/y.md:1:1'));
    assert.equal(index.watchedFolders, 4, 'inner, deep, r1 and r2: none twice, no dead watch kept');
  });

  it('skips node_modules and dot folders; follows symlinked files, not symlinked folders', async () => {
    const v = vault({
      'a.md': '[[dep]] [[hidden]] [[linked]]\n',
      'node_modules/pkg/dep.md': 'dep\n',
      '.obsidian/hidden.md': 'hidden\n',
      'real/linked.md': 'linked\n',
    });
    fs.symlinkSync(path.join(v.dir, 'real'), path.join(v.dir, 'loop'));
    fs.symlinkSync(path.join(v.dir, 'real', 'linked.md'), path.join(v.dir, 'alias.md'));
    const index = await v.provider.index(v.rootUri);
    assert.deepEqual([...index.allNotes()].map((n) => n.relPath).sort(), ['a.md', 'alias.md', 'real/linked.md']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 2)), ['a.md:1:1 unresolved(dep)']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 10)), ['a.md:1:9 unresolved(hidden)']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 21)), ['real/linked.md:1:1']);
    // a note in an excluded folder can still be queried (parsed on demand, not indexed)
    assert.deepEqual(v.render(await v.query('goToDefinition', 'node_modules/pkg/dep.md', 1, 1)), []);
    assert.equal(index.note('node_modules/pkg/dep.md'), undefined);
  });

  it('path links: /from/root, ./relative, ../up; folder index notes; attachments; .markdown notes', async () => {
    const v = vault({
      'projects/house/todo.md': 'house todo\n',
      'work/todo.md': 'work todo\n',
      'projects/index.md': '# Projects\n',
      'docs/guide.markdown': '# Guide\n',
      'img/pic.png': 'PNG',
      'projects/house/x.md': '[[./todo]] [[../../work/todo]] [[/work/todo]] [[/house/todo]] [[../../../out]]\n',
      'a.md': '[[house/todo]] [[projects]] ![[pic.png|300]] [[guide]] [[Guide.markdown]]\n',
    });
    const at = async (rel: string, needle: string) => v.render(await v.queryAt('goToDefinition', rel, needle));
    assert.deepEqual(await at('projects/house/x.md', '[[./todo'), ['projects/house/todo.md:1:1']);
    assert.deepEqual(await at('projects/house/x.md', '[[../../work'), ['work/todo.md:1:1']);
    assert.deepEqual(await at('projects/house/x.md', '[[/work'), ['work/todo.md:1:1']);
    assert.deepEqual(
      await at('projects/house/x.md', '[[/house'),
      ['projects/house/x.md:1:47 unresolved(/house/todo)'],
      'a root path is exact',
    );
    assert.deepEqual(
      await at('projects/house/x.md', '[[../../../out'),
      ['projects/house/x.md:1:63 unresolved(../../../out)'],
      'cannot leave the workspace',
    );
    assert.deepEqual(await at('a.md', '[[house/todo'), ['projects/house/todo.md:1:1'], 'unique suffix');
    assert.deepEqual(await at('a.md', '[[projects'), ['projects/index.md:1:1'], "Foam's directory link");
    assert.deepEqual(await at('a.md', '![[pic'), ['img/pic.png:1:1'], 'attachment embed');
    assert.deepEqual(await at('a.md', '[[guide'), ['docs/guide.markdown:1:1']);
    assert.deepEqual(await at('a.md', '[[Guide.markdown'), ['docs/guide.markdown:1:1']);
    assert.deepEqual(v.render(await v.query('findReferences', 'projects/house/todo.md', 1, 1)), [
      'projects/house/todo.md:1:1 declaration',
      'a.md:1:1',
      'projects/house/x.md:1:1',
    ]);
  });

  it('CRLF notes and astral characters: ranges in UTF-16 on the right lines', async () => {
    const v = vault({ 'n.md': '# N\r\n', 'a.md': 'first\r\n𝑥 😀 [[n]]\r\n' });
    const r = await v.query('findReferences', 'n.md', 1, 1);
    assert.ok(r.kind === 'locations');
    assert.deepEqual(
      r.locations[1]!.range,
      { start: { line: 1, character: 6 }, end: { line: 1, character: 11 } },
      '𝑥 and 😀 are two UTF-16 units each',
    );
    assert.deepEqual(v.render(r), ['n.md:1:1 declaration', 'a.md:2:5']);
  });

  it('hover: title (front matter, H1 or file name) and the first lines, bounded; from the heading for [[n#h]]; null when unresolved or off a link', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const v = vault(
      {
        'fm.md': '---\ntitle: "Front Title"\ntags: [x]\n---\n\n# Heading One\n\nBody text.\n',
        'plain.md': 'no heading here\nsecond\n',
        'long.md': `# Long\n\n${long}\n\n## Section\nsection body\n`,
        'a.md': '[[fm]] [[plain]] [[long]] [[long#Section]] [[nope]] text\n',
      },
      { hoverMaxLines: 5 },
    );
    const h = async (needle: string) => hoverText(await v.queryAt('hover', 'a.md', needle));
    assert.equal(await h('[[fm'), 'Front Title (fm.md)\n\n# Heading One\n\nBody text.');
    assert.equal(await h('[[plain'), 'plain (plain.md)\n\nno heading here\nsecond');
    assert.equal(await h('[[long]]'), 'Long (long.md)\n\nline 1\nline 2\nline 3\nline 4\nline 5\n…');
    assert.equal(await h('[[long#'), 'Long (long.md)\n\n## Section\nsection body');
    assert.equal(await h('[[nope'), null);
    assert.equal(await h('text'), null);
  });

  it('errors: a file outside the workspace, a missing file, a missing workspace; cancellation', async () => {
    const v = vault({ 'a.md': 'a\n' });
    const other = makeVaultDir({ 'o.md': '[[a]]\n' });
    dirs.push(other);
    const ask = (uri: string, workspaceUri = v.rootUri, signal = new AbortController().signal) =>
      v.service.query({ operation: 'goToDefinition', uri, position: { line: 0, character: 0 }, workspaceUri }, signal);
    await assert.rejects(
      ask(pathToFileUri(path.join(other, 'o.md'))),
      (e: LspError) => e.code === 'outside_workspace' && /is not inside the workspace folder/.test(e.message),
    );
    await assert.rejects(
      ask(v.uri('missing.md')),
      (e: LspError) => e.code === 'file_not_found' && e.message.startsWith('file not found: missing.md'),
    );
    const later = path.join(v.dir, 'no-such-folder');
    await assert.rejects(
      ask(pathToFileUri(path.join(later, 'x.md')), pathToFileUri(later)),
      (e: LspError) => e.code === 'file_not_found' && /workspace folder not found/.test(e.message),
    );
    // once the folder exists, the next query builds its index (a failed build is not cached)
    fs.mkdirSync(later);
    fs.writeFileSync(path.join(later, 'x.md'), '[[y]]\n');
    fs.writeFileSync(path.join(later, 'y.md'), 'y\n');
    const ok = await v.service.query({
      operation: 'goToDefinition',
      uri: pathToFileUri(path.join(later, 'x.md')),
      position: { line: 0, character: 2 },
      workspaceUri: pathToFileUri(later),
    });
    assert.ok(ok.kind === 'locations');
    assert.equal(ok.locations[0]!.uri, pathToFileUri(path.join(later, 'y.md')));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(ask(v.uri('a.md'), v.rootUri, ac.signal), (e: LspError) => e.code === 'cancelled');
    // a non-file URI is refused by the Node file system with a clear message
    await assert.rejects(ask('untitled:Untitled-1.md', 'untitled:'), /reads only file: URIs|not inside the workspace/);
  });

  it('two workspace folders get separate indexes from one provider', async () => {
    const one = makeVaultDir({ 'a.md': '[[same]]\n', 'same.md': 'one\n' });
    const two = makeVaultDir({ 'a.md': '[[same]]\n', 'same.md': 'two\n' });
    dirs.push(one, two);
    const service = new LspService();
    const provider = new MdLinksProvider(new NodeWorkspaceFs());
    service.registerProvider(provider);
    for (const dir of [one, two]) {
      const r = await service.query({
        operation: 'goToDefinition',
        uri: pathToFileUri(path.join(dir, 'a.md')),
        position: { line: 0, character: 2 },
        workspaceUri: pathToFileUri(dir),
      });
      assert.ok(r.kind === 'locations');
      assert.equal(r.locations[0]!.uri, pathToFileUri(path.join(dir, 'same.md')));
      assert.equal(r.resolvedWorkspaceUri, pathToFileUri(dir));
    }
  });
});
