// The md-links provider on a real vault: Foam's documentation (test/fixtures/foam-docs, 87
// markdown files, MIT, see its SOURCE.md and LICENSE.txt). Read only: nothing here writes to it
// (checked).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import { snapshot, Vault } from '../../helpers/wikiVault';
import { parseNote } from '../../../src/lsp/wikilinks/parse';
import { splitLines, toModelPosition } from '../../../src/lsp/position';
import { LspResult } from '../../../src/lsp/types';

const FOAM_DOCS = path.resolve(__dirname, '../../fixtures/foam-docs');

/** Every `.md` file of the vault, workspace-relative, sorted. */
function markdownFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...markdownFiles(dir, r));
    else if (e.name.endsWith('.md')) out.push(r);
  }
  return out.sort();
}

describe('wiki links: the real foam-docs vault', function () {
  let v: Vault;
  let untouched: Record<string, string>;

  before(async function () {
    if (!fs.existsSync(path.join(FOAM_DOCS, 'SOURCE.md'))) {
      throw new Error(
        `the foam-docs vault is missing at ${FOAM_DOCS}; it is part of the repository (git checkout -- test/fixtures/foam-docs)`,
      );
    }
    untouched = snapshot(FOAM_DOCS);
    v = new Vault(FOAM_DOCS);
    await v.provider.index(v.rootUri);
  });

  after(() => {
    if (untouched) assert.deepEqual(snapshot(FOAM_DOCS), untouched, 'the foam-docs fixture must not be modified');
  });

  it('indexes all 87 markdown files and every [[…]] in them is either a link or inside code', async () => {
    const index = await v.provider.index(v.rootUri);
    const files = markdownFiles(FOAM_DOCS);
    assert.equal(files.length, 87);
    assert.equal(index.stats().notes, 87);
    assert.deepEqual(index.stats().problems, []);
    let naive = 0;
    let links = 0;
    let ignored = 0;
    const ignoredKinds: Record<string, number> = {};
    for (const rel of files) {
      const text = fs.readFileSync(path.join(FOAM_DOCS, rel), 'utf8');
      const parsed = parseNote(text);
      assert.deepEqual(index.note(rel)!.parsed.links, parsed.links);
      splitLines(text).forEach((line, i) => {
        const re = /!?\[\[[^[\]]*\]\]/g;
        for (let m = re.exec(line); m; m = re.exec(line)) {
          naive++;
          const end = m.index + m[0].length;
          if (parsed.links.some((l) => l.range.start.line === i && l.range.end.character === end)) {
            links++;
            continue;
          }
          const region = parsed.ignored.find((r) => {
            const afterStart = r.range.start.line < i || (r.range.start.line === i && r.range.start.character <= m.index);
            const beforeEnd = r.range.end.line > i || (r.range.end.line === i && r.range.end.character >= end);
            return afterStart && beforeEnd;
          });
          assert.ok(region, `${rel}:${i + 1}:${m.index + 1} ${m[0]} is neither a link nor inside code`);
          ignored++;
          ignoredKinds[region.kind] = (ignoredKinds[region.kind] ?? 0) + 1;
        }
      });
    }
    // ~300 wiki links in the vault (SOURCE.md): 199 real links, 102 inside code examples.
    assert.deepEqual(
      { naive, links, ignored, ignoredKinds },
      { naive: 301, links: 199, ignored: 102, ignoredKinds: { 'inline-code': 47, fence: 55 } },
    );
    assert.equal([...index.allLinks()].length, 199);
  });

  it('finds the same inline code spans as markdown-it in every paragraph and heading', () => {
    const md = new MarkdownIt('commonmark', { html: true }).enable('table');
    let checked = 0;
    for (const rel of markdownFiles(FOAM_DOCS)) {
      const text = fs.readFileSync(path.join(FOAM_DOCS, rel), 'utf8');
      const parsed = parseNote(text);
      const source = parsed.frontMatter
        ? splitLines(text)
            .map((l, i) => (i <= parsed.frontMatter!.endLine ? '' : l))
            .join('\n')
        : text;
      const tokens = md.parse(source, {});
      for (let t = 0; t < tokens.length; t++) {
        const tok = tokens[t]!;
        if (tok.type !== 'inline' || !tok.map || !tok.children) continue;
        const [a, b] = tok.map;
        const theirs = tok.children.filter((c) => c.type === 'code_inline').map((c) => c.content);
        const ours = parsed.ignored.filter((r) => r.kind === 'inline-code' && r.range.start.line >= a && r.range.start.line < b);
        assert.equal(
          ours.length,
          theirs.length,
          `${rel}:${a + 1}: markdown-it finds ${theirs.length} code spans (${JSON.stringify(theirs)}), we find ${ours.length}`,
        );
        checked += theirs.length;
      }
    }
    assert.ok(checked > 400, `checked ${checked} code spans`);
  });

  it('every link resolves or is reported unresolved (goToDefinition on each of the 199 links)', async () => {
    const index = await v.provider.index(v.rootUri);
    const unresolved: string[] = [];
    let resolved = 0;
    for (const l of index.allLinks()) {
      const rel = l.source.relPath;
      const text = fs.readFileSync(path.join(FOAM_DOCS, rel), 'utf8');
      const { line, column } = toModelPosition(text, l.link.range.start);
      const rendered = v.render(await v.query('goToDefinition', rel, line, column));
      assert.equal(rendered.length, 1, `${rel}:${line}:${column} ${l.link.raw} -> ${JSON.stringify(rendered)}`);
      if (rendered[0]!.includes('unresolved(')) {
        assert.equal(rendered[0], `${rel}:${line}:${column} unresolved(${l.link.target})`);
        unresolved.push(`${rel}:${line}:${column} ${l.link.raw}`);
      } else {
        const target = rendered[0]!.split(':')[0]!;
        assert.ok(fs.existsSync(path.join(FOAM_DOCS, target)), `${l.link.raw} -> ${target} exists`);
        resolved++;
      }
    }
    assert.equal(resolved, 197);
    // Both dangling in the published docs: `publishing` is a folder without an index note, `cli-grep` a renamed page.
    assert.deepEqual(unresolved.sort(), ['user/index.md:69:5 [[publishing]]', 'user/tools/cli/search.md:11:35 [[cli-grep|foam grep]]']);
  });

  // Checked by hand against the files: [file, 1-based line, 1-based column of the link, expected definition].
  const expected: Array<[string, number, number, string[], string]> = [
    ['index.md', 105, 12, ['principles.md:1:1'], '[[principles]]'],
    ['index.md', 106, 14, ['dev/contribution-guide.md:1:1'], '[[contribution-guide]] in another folder'],
    ['principles.md', 49, 310, ['dev/code-of-conduct.md:1:1'], '[[code-of-conduct]] (target starts with front matter)'],
    ['user/features/daily-notes.md', 63, 49, ['user/tools/cli/daily.md:1:1'], 'alias [[daily|CLI daily command]]'],
    [
      'user/recipes/search-and-navigate-notes.md',
      28,
      122,
      ['user/features/resource-filters.md:1:1'],
      'alias [[resource-filters|filter the graph]]',
    ],
    ['user/tools/cli/links.md', 57, 231, ['user/tools/cli/note.md:1:1'], 'alias [[note|foam note id]]'],
    ['user/tools/orphans.md', 12, 40, ['user/tools/cli/list.md:1:1'], 'alias [[list|foam list orphans]]'],
    ['user/features/tags.md', 90, 39, ['user/tools/cli/tag.md:1:1'], 'alias [[tag|CLI tag command]]'],
    [
      'user/getting-started/installation.md',
      61,
      73,
      ['user/tools/cli.md:1:1'],
      'alias [[cli|CLI documentation]]: the note, not the folder cli/',
    ],
    ['user/tools/cli.md', 35, 3, ['user/tools/cli/note.md:1:1'], '[[note]] from the parent folder'],
    ['user/features/note-properties.md', 50, 81, ['user/features/templates.md:307:1'], 'heading [[templates#Metadata]] -> `### Metadata`'],
    ['user/recipes/migrating-from-obsidian.md', 17, 27, ['user/features/wikilinks.md:1:1'], '[[wikilinks]] in a table cell'],
    ['user/recipes/migrating-from-obsidian.md', 18, 27, ['user/features/embeds.md:1:1'], '[[embeds]] in a table cell'],
    ['user/index.md', 69, 5, ['user/index.md:69:5 unresolved(publishing)'], 'dangling [[publishing]] (a folder without index.md)'],
    ['user/tools/cli/search.md', 11, 35, ['user/tools/cli/search.md:11:35 unresolved(cli-grep)'], 'dangling alias [[cli-grep|foam grep]]'],
    // Links inside code examples are not links.
    ['SOURCE.md', 4, 21, [], '`[[wiki links]]` in inline code'],
    ['index.md', 8, 55, [], 'embed `![[note]]` in inline code'],
    ['user/recipes/migrating-from-obsidian.md', 17, 4, [], '`[[wikilinks]]` in inline code in a table cell'],
    ['user/recipes/migrating-from-obsidian.md', 18, 4, [], 'embed `![[embeds]]` in inline code in a table cell'],
    ['user/features/embeds.md', 12, 1, [], 'embed ![[note-name]] in a ```markdown fence'],
    ['user/features/embeds.md', 22, 1, [], 'heading embed ![[note-name#Section Title]] in a fence'],
    ['user/features/embeds.md', 117, 1, [], 'image embed ![[image.png|300]] in a fence'],
    ['user/features/block-anchors.md', 126, 1, [], 'block embed ![[research-notes#^key-insight]] in a fence'],
    ['user/features/block-anchors.md', 118, 1, [], 'block link with alias in a fence'],
    ['user/getting-started/navigation.md', 38, 14, [], 'alias [[Einstein, Albert|Einstein]] in a fence'],
    ['user/publishing/math-support-with-mathjax.md', 18, 23, [], "[['$','$']] in a JavaScript fence"],
    ['user/recipes/capture-notes-with-drafts-pro.md', 47, 71, [], '[[index]] in a fence (two index.md exist: it would be ambiguous)'],
    ['user/getting-started/get-started-with-vscode.md', 69, 12, [], '`[[]]` in inline code'],
    ['user/features/wikilinks.md', 62, 149, [], '`[[todo]]` in inline code'],
  ];
  for (const [file, line, column, want, what] of expected) {
    it(`definition of ${what} at ${file}:${line}:${column}`, async () => {
      assert.deepEqual(v.render(await v.query('goToDefinition', file, line, column)), want);
    });
  }

  it('references of wikilinks.md: its ten links (not the three in inline code), the declaration first', async () => {
    assert.deepEqual(v.render(await v.query('findReferences', 'user/features/wikilinks.md', 1, 1)), [
      'user/features/wikilinks.md:1:1 declaration',
      'user/features/block-anchors.md:143:3',
      'user/features/footnotes.md:40:3',
      'user/features/graph-view.md:142:6',
      'user/frequently-asked-questions.md:13:43',
      'user/index.md:42:3',
      'user/recipes/migrating-from-obsidian.md:17:27',
      'user/recipes/migrating-from-obsidian.md:36:151',
      'user/recipes/migrating-from-obsidian.md:46:3',
      'user/recipes/recipes.md:44:23',
      'user/tools/cli/rename.md:103:10',
    ]);
  });

  it('references on a link to block-anchors (the link itself included)', async () => {
    const refs = v.render(await v.query('findReferences', 'user/features/embeds.md', 33, 7));
    assert.deepEqual(refs, [
      'user/features/block-anchors.md:1:1 declaration',
      'user/features/embeds.md:33:5',
      'user/features/footnotes.md:41:3',
      'user/features/wikilinks.md:33:5',
      'user/features/wikilinks.md:88:3',
      'user/index.md:44:3',
      'user/recipes/migrating-from-obsidian.md:19:27',
      'user/tools/cli/rename.md:103:52',
    ]);
  });

  it('hover on [[principles]]: the title and the first lines, bounded', async () => {
    const r: LspResult = await v.query('hover', 'index.md', 105, 12);
    assert.equal(r.kind, 'hover');
    const text = r.kind === 'hover' ? r.contents : null;
    assert.ok(text, 'a hover');
    const lines = text.split('\n');
    assert.equal(lines[0], 'Principles (principles.md)');
    assert.equal(lines[2], '## Table of Contents');
    assert.ok(lines.length <= 2 + 12 + 1, `at most 12 lines of excerpt plus an ellipsis: ${lines.length}`);
    assert.equal(lines[lines.length - 1], '…');
  });

  it('goToImplementation answers an empty list with the resolved workspace URI', async () => {
    const r = await v.query('goToImplementation', 'index.md', 105, 12);
    assert.deepEqual(r, { kind: 'locations', locations: [], resolvedWorkspaceUri: v.rootUri });
  });
});
