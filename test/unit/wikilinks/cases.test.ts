// The field's wiki-link cases W01–W13, each on a real temp vault, through
// the real md-links provider registered on the real LspService. Positions are the model's: 1-based
// line and column in characters, converted once like the dsh_lsp tool does.
import * as assert from 'node:assert/strict';
import { snapshot, Vault } from '../../helpers/wikiVault';
import { parseNote } from '../../../src/lsp/wikilinks/parse';
import { LspResult } from '../../../src/lsp/types';

const vaults: Vault[] = [];
function vault(files: Record<string, string>, options = {}): Vault {
  const v = Vault.create(files, options);
  vaults.push(v);
  return v;
}
after(() => vaults.forEach((v) => v.cleanup()));

function hover(r: LspResult): string | null {
  assert.equal(r.kind, 'hover');
  return r.kind === 'hover' ? r.contents : null;
}

describe('wiki links: cases W01–W13', () => {
  it('W01: links in inline code and in a ``` fence are not links: no references, no definition', async () => {
    const v = vault({
      'file1.md': 'Inline `[[file2]]` here.\n\n```\n[[file2]]\n```\n\n~~~md\n[[file2]]\n~~~\n',
      'file2.md': '# File 2\n',
    });
    assert.deepEqual(v.render(await v.query('findReferences', 'file2.md', 1, 1)), ['file2.md:1:1 declaration']);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'file1.md', 'file2]]')), [], 'inside inline code');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'file1.md', 4, 3)), [], 'inside the ``` fence');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'file1.md', 8, 3)), [], 'inside the ~~~ fence');
    assert.equal(hover(await v.query('hover', 'file1.md', 4, 3)), null);
  });

  it('W02: `[winning the award]` and `[^1]` are not links: only [[…]] is a wiki link', async () => {
    const text = 'We are [winning the award] today[^1].\n\n[^1]: a footnote\n';
    const v = vault({ 'a.md': text, 'winning the award.md': 'x\n', '1.md': 'one\n', '^1.md': 'x\n' });
    assert.deepEqual(parseNote(text).links, []);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', 'winning')), []);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '^1]')), []);
    assert.deepEqual(v.render(await v.query('findReferences', 'winning the award.md', 1, 1)), ['winning the award.md:1:1 declaration']);
  });

  it('W03: [[WIKI-links]] resolves case-insensitively to wiki-links.md line 1; nothing is created or written', async () => {
    const v = vault({ 'wiki-links.md': '# Wiki links\n', 'a.md': 'See [[WIKI-links]] and [[does-not-exist]].\n' });
    const before = snapshot(v.dir);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', 'WIKI')), ['wiki-links.md:1:1']);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', 'does-not')), ['a.md:1:24 unresolved(does-not-exist)']);
    await v.queryAt('findReferences', 'a.md', 'does-not');
    await v.queryAt('hover', 'a.md', 'does-not');
    await v.queryAt('hover', 'a.md', 'WIKI');
    assert.deepEqual(snapshot(v.dir), before, 'no file created or modified');
  });

  it('W04: b.md, a.md: [[B]] — references on the note b: a.md:1 plus the declaration', async () => {
    const v = vault({ 'b.md': 'Bee.\n', 'a.md': '[[B]]\n' });
    assert.deepEqual(v.render(await v.query('findReferences', 'b.md', 1, 2)), ['b.md:1:1 declaration', 'a.md:1:1']);
    // the same from the link itself
    assert.deepEqual(v.render(await v.query('findReferences', 'a.md', 1, 3)), ['b.md:1:1 declaration', 'a.md:1:1']);
  });

  it('W05: duplicate names: same folder first, then shallowest, then alphabetical; marked ambiguous with all candidates', async () => {
    const v = vault({
      'a/todo.md': 'A todo\n',
      'b/todo.md': 'B todo\n',
      'c/d/todo.md': 'deep todo\n',
      'a/x.md': '[[todo]]\n',
      'b/x.md': '[[todo]]\n',
      'root.md': '[[todo]]\n',
      'c/x.md': '[[todo]]\n',
    });
    const all = 'ambiguous[a/todo.md,b/todo.md,c/d/todo.md]';
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a/x.md', 1, 3)), [`a/todo.md:1:1 ${all}`]);
    assert.deepEqual(
      v.render(await v.query('goToDefinition', 'b/x.md', 1, 3)),
      ['b/todo.md:1:1 ambiguous[b/todo.md,a/todo.md,c/d/todo.md]'],
      'same folder',
    );
    assert.deepEqual(v.render(await v.query('goToDefinition', 'root.md', 1, 3)), [`a/todo.md:1:1 ${all}`], 'shallowest, then alphabetical');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'c/x.md', 1, 3)), [`a/todo.md:1:1 ${all}`], 'c/d/todo.md is deeper');
    // references of a/todo.md: only the links that resolve to it (from a/x.md, root.md, c/x.md), flagged ambiguous
    assert.deepEqual(v.render(await v.query('findReferences', 'a/todo.md', 1, 1)), [
      'a/todo.md:1:1 declaration',
      `a/x.md:1:1 ${all}`,
      `c/x.md:1:1 ${all}`,
      `root.md:1:1 ${all}`,
    ]);
  });

  it('W06: [[My Note]] -> my-note.md only as a fuzzy slug fallback; a literal name wins when present', async () => {
    const v = vault({ 'my-note.md': 'slugged\n', 'a.md': '[[My Note]]\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['my-note.md:1:1 fuzzy']);
    assert.deepEqual(v.render(await v.query('findReferences', 'my-note.md', 1, 1)), ['my-note.md:1:1 declaration', 'a.md:1:1 fuzzy']);
    const w = vault({ 'my-note.md': 'slugged\n', 'My Note.md': 'literal\n', 'a.md': '[[my note]]\n' });
    assert.deepEqual(
      w.render(await w.query('goToDefinition', 'a.md', 1, 3)),
      ['My Note.md:1:1'],
      'literal (case-insensitive) first, not fuzzy',
    );
    assert.deepEqual(w.render(await w.query('findReferences', 'my-note.md', 1, 1)), ['my-note.md:1:1 declaration'], 'never silently equal');
  });

  it('W07: [[entities/peanut-cat|Peanut]] by path suffix; [[B\\|乙]] in a table: `\\|` and `|` both divide, the range excludes the backslash', async () => {
    const table = '| name | link |\n|---|---|\n| b | [[B\\|乙]] |\n';
    const v = vault({
      'notes/entities/peanut-cat.md': '# Peanut\n',
      'other/peanut-cat.md': '# Another peanut\n',
      'B.md': '# B\n',
      'a.md': 'Meet [[entities/peanut-cat|Peanut]] and [[B|乙]].\n\n' + table,
    });
    assert.deepEqual(
      v.render(await v.queryAt('goToDefinition', 'a.md', 'entities/')),
      ['notes/entities/peanut-cat.md:1:1'],
      'not ambiguous: the suffix decides',
    );
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[B|')), ['B.md:1:1']);
    const def = await v.queryAt('goToDefinition', 'a.md', '[[B\\|');
    assert.deepEqual(v.render(def), ['B.md:1:1']);
    // The link at line 5 is `| b | [[B\|乙]] |`: `[[` at character 6, `B` at 8, the backslash at 9.
    assert.ok(def.kind === 'locations');
    assert.deepEqual(def.locations[0]!.originRange, { start: { line: 4, character: 8 }, end: { line: 4, character: 9 } });
    const link = parseNote(table).links[0]!;
    assert.deepEqual([link.target, link.alias, link.raw], ['B', '乙', '[[B\\|乙]]']);
    assert.deepEqual(link.targetRange, { start: { line: 2, character: 8 }, end: { line: 2, character: 9 } });
    assert.deepEqual(link.range, { start: { line: 2, character: 6 }, end: { line: 2, character: 14 } });
  });

  it('W08: [[My Label|proj.todo]] is target-first by default; alias-first is a setting', async () => {
    const files = { 'proj.todo.md': '# Project todo\n', 'a.md': '[[My Label|proj.todo]]\n' };
    const v = vault(files);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['a.md:1:1 unresolved(My Label)']);
    const w = vault(files, { aliasOrder: 'alias-first' });
    assert.deepEqual(w.render(await w.query('goToDefinition', 'a.md', 1, 3)), ['proj.todo.md:1:1']);
    assert.deepEqual(w.render(await w.query('findReferences', 'proj.todo.md', 1, 1)), ['proj.todo.md:1:1 declaration', 'a.md:1:1']);
  });

  it('W09: [[file#^12345]] goes to the block line 3, not the heading `# 12345`', async () => {
    const v = vault({ 'file.md': '# 12345\n\n> text ^12345\n', 'a.md': '[[file#^12345]] and [[file#12345]]\n' });
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[file#^')), ['file.md:3:1']);
    assert.deepEqual(
      v.render(await v.queryAt('goToDefinition', 'a.md', '[[file#1')),
      ['file.md:1:1'],
      'the heading link goes to the heading',
    );
  });

  it('W10: [[foo-bar-baz]] does not resolve by the H1 `Foo Bar Baz`: reported unresolved, never created', async () => {
    const v = vault({ 'foo.md': '# Foo Bar Baz\n', 'a.md': '[[foo-bar-baz]] [[foo]]\n', 'b.md': 'also [[Foo-Bar-Baz]]\n' });
    const before = snapshot(v.dir);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', 'foo-bar')), ['a.md:1:1 unresolved(foo-bar-baz)']);
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[foo]]')), ['foo.md:1:1'], 'by file stem');
    // references on a dangling link: the links with the same dangling target, all flagged
    assert.deepEqual(v.render(await v.queryAt('findReferences', 'a.md', 'foo-bar')), [
      'a.md:1:1 unresolved(foo-bar-baz)',
      'b.md:1:6 unresolved(Foo-Bar-Baz)',
    ]);
    assert.equal(hover(await v.queryAt('hover', 'a.md', 'foo-bar')), null);
    assert.deepEqual(v.render(await v.query('findReferences', 'foo.md', 1, 1)), ['foo.md:1:1 declaration', 'a.md:1:17']);
    assert.deepEqual(snapshot(v.dir), before);
  });

  it('W11: [[Note#Heading]], [[#Heading]] (same file), ![[Note]] (an embed is a reference), [[Note.md]]', async () => {
    const v = vault({
      'Note.md': '# Note\n\nintro\n\n## Heading\ntext\n',
      'a.md': '[[Note#Heading]] [[#Local]] ![[Note]] [[Note.md]] [[Note#Missing]]\n\n## Local\n',
    });
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[Note#H')), ['Note.md:5:1'], 'heading line');
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[#Local')), ['a.md:3:1'], 'same-file heading');
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '![[Note]]')), ['Note.md:1:1'], 'embed');
    assert.deepEqual(v.render(await v.queryAt('goToDefinition', 'a.md', '[[Note.md]]')), ['Note.md:1:1'], 'explicit .md');
    assert.deepEqual(
      v.render(await v.queryAt('goToDefinition', 'a.md', '[[Note#M')),
      ['Note.md:1:1 anchorMissing'],
      'missing heading: the file',
    );
    assert.deepEqual(v.render(await v.query('findReferences', 'Note.md', 1, 1)), [
      'Note.md:1:1 declaration',
      'a.md:1:1',
      'a.md:1:29 embed',
      'a.md:1:39',
      'a.md:1:51',
    ]);
    // [[#Local]] is a reference to a.md itself
    assert.deepEqual(v.render(await v.queryAt('findReferences', 'a.md', '[[#Local')), ['a.md:1:1 declaration', 'a.md:1:18']);
  });

  it('W12: `😀 [[Note]]` — the link starts at UTF-16 character 3, model column 3', async () => {
    const v = vault({ 'Note.md': 'n\n', 'a.md': '😀 [[Note]]\n' });
    const refs = await v.query('findReferences', 'Note.md', 1, 1);
    assert.ok(refs.kind === 'locations');
    assert.deepEqual(refs.locations[1]!.range, { start: { line: 0, character: 3 }, end: { line: 0, character: 11 } });
    assert.deepEqual(v.render(refs), ['Note.md:1:1 declaration', 'a.md:1:3']);
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 3)), ['Note.md:1:1'], 'model column 3 is on the link');
    assert.deepEqual(v.render(await v.query('goToDefinition', 'a.md', 1, 2)), [], 'column 2 is the space before it');
  });

  it('W13: only links that resolve to the note count — no substring matches', async () => {
    const v = vault({
      'target.md': 't\n',
      'target-old.md': 'o\n',
      'targetX.md': 'x\n',
      'a.md': '[[target-old]] [[targetX]] [[target]]\n[[Target]] [[target-older]] [[my target]] [[dir/target]]\n',
    });
    assert.deepEqual(v.render(await v.query('findReferences', 'target.md', 1, 1)), ['target.md:1:1 declaration', 'a.md:1:28', 'a.md:2:1']);
    assert.deepEqual(v.render(await v.query('findReferences', 'target-old.md', 1, 1)), ['target-old.md:1:1 declaration', 'a.md:1:1']);
  });

  it('DSH verification: definition of [[another note]] -> the other note, line 1; references on that line include the line itself', async () => {
    const v = vault({ 'one note.md': '# One\n\nThis links to [[another note]].\n', 'another note.md': '# Another note\n\nBody.\n' });
    assert.deepEqual(v.render(await v.query('goToDefinition', 'one note.md', 3, 17)), ['another note.md:1:1']);
    assert.deepEqual(v.render(await v.query('findReferences', 'one note.md', 3, 17)), [
      'another note.md:1:1 declaration',
      'one note.md:3:15',
    ]);
    assert.equal(hover(await v.query('hover', 'one note.md', 3, 17)), 'Another note (another note.md)\n\nBody.');
  });
});
