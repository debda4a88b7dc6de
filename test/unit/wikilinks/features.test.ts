// Symbols and diagnostics of notes from the md-links index (src/lsp/wikilinks/features.ts), on
// real vaults on disk (the repository's fixture vault and temp vaults), shaped for the model by
// src/lsp/features/shapeSymbols.ts and shapeDiagnostics.ts as the tools show them (1-based lines, character columns).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shapeOutline, shapeWorkspaceSymbols, ShownSymbol } from '../../../src/lsp/features/shapeSymbols';
import { shapeDiagnostics } from '../../../src/lsp/features/shapeDiagnostics';
import { matchSymbolName } from '../../../src/lsp/features/match';
import { MdLinksFeatures } from '../../../src/lsp/wikilinks/features';
import { splitLines } from '../../../src/lsp/position';
import { fileUriToPath } from '../../../src/lsp/uri';
import { Vault } from '../../helpers/wikiVault';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';

const HOLD_LIMIT_MS = 600;

const FIXTURE_VAULT = path.resolve(__dirname, '../../fixtures/workspace/vault');
const readLines = async (uri: string) => splitLines(fs.readFileSync(fileUriToPath(uri), 'utf8'));
const ctx = (v: Vault) => ({ workspaceUri: v.workspaceUri, signal: new AbortController().signal });
const page = (v: Vault) => ({ roots: [v.rootUri], offset: 0, limit: 50, readLines });
const tree = (s: readonly ShownSymbol[], depth = 0): string[] =>
  s.flatMap((x) => [
    `${'  '.repeat(depth)}${x.kind} ${x.name} ${x.line}:${x.column}-${x.endLine}:${x.endColumn}`,
    ...tree(x.children ?? [], depth + 1),
  ]);

describe('md-links symbols and diagnostics (notes as the new tools see them)', () => {
  const fixture = new Vault(FIXTURE_VAULT);
  const features = new MdLinksFeatures(() => fixture.provider);

  it('outline: headings nested by level, each spanning its section; a block anchor inside its section', async () => {
    const outline = await shapeOutline(
      await features.documentSymbols(fixture.uri('another note.md'), 'markdown', ctx(fixture)),
      page(fixture),
    );
    assert.deepEqual(tree(outline.outline), ['String Another note 1:1-8:1', '  String Details 5:1-8:1', '    Key ^detail-block 7:27-7:40']);
    assert.equal(outline.total, 3);
    assert.equal(outline.summary, 'showing 1–3 of 3 in 1 file');
  });

  it('outline paging: a page that starts inside a section names the parent as containerName', async () => {
    const outline = await shapeOutline(await features.documentSymbols(fixture.uri('another note.md'), 'markdown', ctx(fixture)), {
      ...page(fixture),
      offset: 1,
      limit: 1,
    });
    assert.deepEqual(
      outline.outline.map((s) => [s.name, s.containerName, s.children]),
      [['Details', 'Another note', undefined]],
    );
    assert.equal(outline.nextOffset, 2);
  });

  it('workspace symbols: file names and titles match by name and by partial name, with the folder as container', async () => {
    const shaped = await shapeWorkspaceSymbols(
      (await features.workspaceSymbols('todo', ctx(fixture))).map((symbol) => ({ symbol, score: matchSymbolName('todo', symbol.name)! })),
      page(fixture),
    );
    assert.deepEqual(
      shaped.symbols.map((s) => `${s.name} (${s.detail}) ${s.path}:${s.line}:${s.column} in ${s.containerName}`),
      [
        'todo (file name) Topics/todo.md:1:1 in Topics',
        'todo (file name) archive/todo.md:1:1 in archive',
        'Todo (topics) (title) Topics/todo.md:1:1 in Topics',
        'Todo (archive) (title) archive/todo.md:1:1 in archive',
      ],
    );
    const partial = await features.workspaceSymbols('anoth', ctx(fixture));
    assert.deepEqual(
      partial.map((s) => `${s.name}/${s.detail}`),
      ['another note/file name'],
      'a title equal to the file name (ignoring case) is not listed twice',
    );
  });

  it('workspace symbols: front-matter aliases (list and single string) are symbols at their line', async () => {
    const v = Vault.create({
      'people/ada.md': '---\ntitle: Ada Lovelace\naliases:\n  - Countess of Lovelace\n  - AAL\n---\n\nBody\n',
      'people/babbage.md': '---\nalias: Charles\n---\n# Charles Babbage\n',
      'broken-yaml.md': '---\naliases: [unclosed\n---\n',
    });
    try {
      const f = new MdLinksFeatures(() => v.provider);
      const names = async (q: string) =>
        (await f.workspaceSymbols(q, ctx(v))).map((s) => `${s.name}/${s.detail}@${s.selectionRange.start.line + 1}`).sort();
      assert.deepEqual(await names('countess'), ['Countess of Lovelace/alias@4']);
      assert.deepEqual(await names('charles'), ['Charles Babbage/title@4', 'Charles/alias@2']);
      assert.deepEqual(await names('lovelace'), ['Ada Lovelace/title@1', 'Countess of Lovelace/alias@4']);
      assert.deepEqual(await names('unclosed'), [], 'invalid YAML front matter gives no aliases, and no error');
    } finally {
      v.cleanup();
    }
  });

  it('diagnostics of the fixture vault: the broken link is an error, the ambiguous one a warning, errors first', async () => {
    const answer = await features.workspaceDiagnostics(ctx(fixture));
    assert.equal(answer.freshness, 'settled');
    const shaped = await shapeDiagnostics(answer.diagnostics, page(fixture));
    assert.deepEqual(
      shaped.diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}:${d.line}:${d.column}-${d.endColumn}`),
      ['error broken-link index.md:6:5-17', 'warning ambiguous-link index.md:4:5-9'],
    );
    assert.match(
      shaped.diagnostics[1]!.message,
      /'todo' matches 2 files \(Topics\/todo\.md, archive\/todo\.md\); it goes to Topics\/todo\.md/,
    );
    assert.equal(shaped.summary, 'showing 1–2 of 2 in 1 file (1 error, 1 warning)');
    assert.deepEqual(shaped.files, [{ path: 'index.md', count: 2, error: 1, warning: 1 }]);
    const errorsOnly = await shapeDiagnostics(answer.diagnostics, { ...page(fixture), minSeverity: 'error' });
    assert.equal(errorsOnly.total, 1);
  });

  it('diagnostics: links to a missing heading or block name the note; a fixed note clears them; one note alone', async () => {
    const v = Vault.create({
      'a.md': '# A\n\nSee [[b#Nowhere]] and [[b#^gone]] and [[b#Here]] and [[#Local]].\n\n## Local\n',
      'b.md': '# B\n\n## Here\n\ntext ^kept\n',
    });
    try {
      const f = new MdLinksFeatures(() => v.provider);
      const one = await f.documentDiagnostics(v.uri('a.md'), 'markdown', ctx(v));
      const shaped = await shapeDiagnostics(one.diagnostics, page(v));
      assert.deepEqual(
        shaped.diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`),
        ["missing-heading 3:7 no heading 'Nowhere' in b.md", "missing-block 3:25 no block '^gone' in b.md"],
      );
      fs.writeFileSync(path.join(v.dir, 'b.md'), '# B\n\n## Nowhere\n\ntext ^gone\n');
      await v.provider.onFileChanged(v.uri('b.md'));
      const after = await f.documentDiagnostics(v.uri('a.md'), 'markdown', ctx(v));
      assert.deepEqual(
        after.diagnostics.map((d) => d.code),
        ['missing-heading'],
        '[[b#Here]] is now the missing one',
      );
      const none = await shapeDiagnostics([], page(v));
      assert.equal(none.summary, 'no problems');
    } finally {
      v.cleanup();
    }
  });
});

describe('md-links diagnostics stay bounded', () => {
  it('an ambiguous link names at most 5 matching notes and counts the rest, in the problem and in hover', async () => {
    const folders = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const v = Vault.create({
      'index.md': '# Index\n\nSee [[dup]].\n',
      ...Object.fromEntries(folders.map((f) => [`${f}/dup.md`, `# ${f}\n`])),
    });
    try {
      const f = new MdLinksFeatures(() => v.provider);
      const [d] = (await f.documentDiagnostics(v.uri('index.md'), 'markdown', ctx(v))).diagnostics;
      assert.equal(d?.code, 'ambiguous-link');
      assert.equal(
        d.message,
        "ambiguous wiki link: 'dup' matches 8 files (a/dup.md, b/dup.md, c/dup.md, d/dup.md, e/dup.md and 3 more); it goes to a/dup.md. Write the folder to choose, e.g. [[a/dup]]",
      );
      const hover = await v.queryAt('hover', 'index.md', 'dup');
      assert.equal(hover.kind, 'hover');
      assert.match(JSON.stringify(hover), /showing the first of a\/dup\.md, b\/dup\.md, c\/dup\.md, d\/dup\.md, e\/dup\.md and 3 more/);
    } finally {
      v.cleanup();
    }
  });

  it("a note's problems are computed in slices: 19 000 ambiguous links among 100 same-named notes never hold the thread long", async function () {
    this.timeout(120_000);
    const links = Array.from({ length: 19_000 }, () => '[[dup]]').join('\n');
    const notes = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${String(i).padStart(3, '0')}/dup.md`, '# dup\n']));
    const v = Vault.create({ 'many.md': `# Many\n${links}\n`, ...notes });
    try {
      const f = new MdLinksFeatures(() => v.provider);
      await v.provider.index(v.workspaceUri, new AbortController().signal).then((i) => i.settled()); // the index is built (itself in slices)
      const one = await withLagProbe(() => f.documentDiagnostics(v.uri('many.md'), 'markdown', ctx(v)));
      assert.equal(one.result.diagnostics.length, 19_000);
      assert.deepEqual(
        [one.result.diagnostics[18_999]!.code, one.result.diagnostics[18_999]!.range.start.line],
        ['ambiguous-link', 19_000],
      );
      assert.ok(one.maxHeldMs < HOLD_LIMIT_MS, `one note: the thread was ${heldText(one)} (limit ${HOLD_LIMIT_MS})`);
      const all = await withLagProbe(() => f.workspaceDiagnostics(ctx(v)));
      assert.equal(all.result.diagnostics.length, 19_000);
      assert.ok(all.maxHeldMs < HOLD_LIMIT_MS, `the workspace: the thread was ${heldText(all)} (limit ${HOLD_LIMIT_MS})`);
    } finally {
      v.cleanup();
    }
  });
});
