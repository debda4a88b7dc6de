// What dsh_lsp shows the model (src/lsp/shapeLocations.ts and its parts, hoverText.ts, loadingHover.ts,
// declaredName.ts): result shaping and paging (L09, L12, L13,
// L18, L19), hover flattening (L03, L04) and declaration-keyword snapping (L11), under plain Node.
import * as assert from 'node:assert/strict';
import { snapToDeclaredName } from '../../../src/lsp/declaredName';
import { flattenHover, HOVER_MAX_UNITS, shownHover } from '../../../src/lsp/hoverText';
import { isLoadingHover } from '../../../src/lsp/loadingHover';
import { preview, PREVIEW_MAX_CHARS } from '../../../src/lsp/previewLine';
import { shapeLocations } from '../../../src/lsp/shapeLocations';
import { LINE_TEXT_MAX_UNITS } from '../../../src/lsp/lineWindow';
import { splitLines } from '../../../src/lsp/position';
import type { NavLocation } from '../../../src/lsp/types';

const ROOT = 'file:///ws';
const loc = (uri: string, line: number, character: number, length = 1, extra: Partial<NavLocation> = {}): NavLocation => ({
  uri,
  range: { start: { line, character }, end: { line, character: character + length } },
  ...extra,
});

function reader(files: Record<string, string>) {
  const calls: string[] = [];
  return {
    calls,
    readLines: async (uri: string) => {
      calls.push(uri);
      const t = files[uri];
      return t === undefined ? undefined : splitLines(t);
    },
  };
}

describe('lsp present: shaping dsh_lsp locations', () => {
  it('L09: 150 references page as "showing 1–50 of 150" with per-file counts and nextOffset', async () => {
    const many = Array.from({ length: 100 }, (_, i) => loc(`${ROOT}/many.ts`, i + 1, 0, 4));
    const more = Array.from({ length: 49 }, (_, i) => loc(`${ROOT}/more.ts`, i + 1, 0, 4));
    const all = [...more, loc(`${ROOT}/decl.ts`, 0, 16, 4, { isDeclaration: true }), ...many];
    const r = reader({});
    const page = (offset?: number) =>
      shapeLocations(all, {
        operation: 'findReferences',
        resolvedWorkspaceUri: ROOT,
        readLines: r.readLines,
        ...(offset !== undefined ? { offset } : {}),
      });
    const first = await page();
    assert.equal(first.total, 150);
    assert.equal(first.shown, 50);
    assert.equal(first.nextOffset, 50);
    assert.match(first.summary, /^showing 1–50 of 150 in 3 files; next page: offset 50/);
    assert.deepEqual(first.files, [
      { path: 'decl.ts', count: 1 },
      { path: 'many.ts', count: 100 },
      { path: 'more.ts', count: 49 },
    ]);
    assert.equal(first.locations[0]!.isDeclaration, true, 'L19: the declaration comes first and is marked');
    const last = await page(100);
    assert.equal(last.shown, 50);
    assert.equal(last.nextOffset, undefined);
    assert.match(last.summary, /^showing 101–150 of 150/);
    const past = await page(150);
    assert.equal(past.shown, 0);
    assert.match(past.summary, /past the end: there are 150 results/);
  });

  it('L18/L12: workspace hits first; node_modules and outside references collapsed into counts', async () => {
    const locations = [
      loc('file:///elsewhere/lib.ts', 3, 0),
      loc(`${ROOT}/node_modules/lib/index.d.ts`, 1, 0),
      loc(`${ROOT}/node_modules/lib/index.d.ts`, 0, 24, 4, { isDeclaration: true }),
      loc(`${ROOT}/src/use.ts`, 1, 0),
    ];
    const r = reader({});
    const refs = await shapeLocations(locations, { operation: 'findReferences', resolvedWorkspaceUri: ROOT, readLines: r.readLines });
    assert.deepEqual(
      refs.locations.map((l) => [l.path, l.isDeclaration ?? false, l.nodeModules ?? false]),
      [
        ['src/use.ts', false, false],
        ['node_modules/lib/index.d.ts', true, true],
      ],
    );
    assert.deepEqual(refs.collapsed, {
      nodeModules: { count: 1, files: [{ path: 'node_modules/lib/index.d.ts', count: 1 }] },
      external: { count: 1, files: [{ path: '/elsewhere/lib.ts', count: 1 }] },
    });
    assert.match(refs.summary, /1 in node_modules and 1 outside the workspace not listed/);
    const defs = await shapeLocations([loc('file:///elsewhere/lib.ts', 3, 0)], {
      operation: 'goToDefinition',
      resolvedWorkspaceUri: ROOT,
      readLines: r.readLines,
    });
    assert.deepEqual(
      defs.locations.map((l) => [l.path, l.external]),
      [['/elsewhere/lib.ts', true]],
      'a definition outside is listed, labelled external',
    );
  });

  it('L13/L14: decoded workspace-relative paths; columns converted from UTF-16 with the target line; duplicates removed', async () => {
    const uri = `${ROOT}/docs/My%20Notes%20%231/a%25b%2Bc.ts`;
    const r = reader({ [uri]: 'x\n  🍋l = 1;  ' });
    const s = await shapeLocations([loc(uri, 1, 4, 1), loc(`${ROOT}/docs/My Notes %231/a%25b+c.ts`, 1, 4, 1)], {
      operation: 'goToDefinition',
      resolvedWorkspaceUri: ROOT,
      readLines: r.readLines,
    });
    assert.equal(s.total, 1, 'the same resource through two encodings is one location');
    assert.deepEqual(s.locations[0], {
      path: 'docs/My Notes #1/a%b+c.ts',
      line: 2,
      column: 4,
      endLine: 2,
      endColumn: 5,
      preview: '🍋l = 1;',
    });
    assert.equal(r.calls.length, 1, 'each document is read once');
  });

  it('previews keep the first 200 code points of the trimmed line, a surrogate pair never split, also on a minified line of megabytes', async () => {
    const pair = '\u{1F600}';
    assert.equal(preview(`  ${'a'.repeat(PREVIEW_MAX_CHARS)}  `), 'a'.repeat(PREVIEW_MAX_CHARS));
    assert.equal(
      preview(pair.repeat(PREVIEW_MAX_CHARS)),
      pair.repeat(PREVIEW_MAX_CHARS),
      '200 code points in 400 UTF-16 units are not cut',
    );
    assert.equal(preview(pair.repeat(PREVIEW_MAX_CHARS + 1)), pair.repeat(PREVIEW_MAX_CHARS) + '…');
    assert.equal(preview('a'.repeat(PREVIEW_MAX_CHARS - 1) + pair + 'b'), 'a'.repeat(PREVIEW_MAX_CHARS - 1) + pair + '…');
    const minified = 'var a=1;'.repeat(1024 * 1024); // one 8 MiB line
    const locations = Array.from({ length: 50 }, (_, i) => loc(`${ROOT}/dist/bundle.min.js`, 0, i * 8, 3));
    const shaped = await shapeLocations(locations, {
      operation: 'findReferences',
      resolvedWorkspaceUri: ROOT,
      otherRoots: [],
      offset: 0,
      limit: 50,
      readLines: async () => [minified],
    });
    assert.equal(shaped.locations.length, 50);
    for (const l of shaped.locations) assert.equal(l.preview, minified.slice(0, PREVIEW_MAX_CHARS) + '…');
  });

  it('an unresolved wiki link written on a line of megabytes: its linkTarget is cut to LINE_TEXT_MAX_UNITS and flagged', async () => {
    const target = 'n'.repeat(1_000_000);
    const s = await shapeLocations(
      [
        loc(`${ROOT}/a.md`, 0, 0, 4, { unresolved: true, linkTarget: target }),
        loc(`${ROOT}/b.md`, 0, 0, 4, { unresolved: true, linkTarget: 'short' }),
      ],
      {
        operation: 'findReferences',
        resolvedWorkspaceUri: ROOT,
        readLines: async () => undefined,
      },
    );
    const [cut, short] = s.locations;
    assert.equal(cut!.linkTarget, `${'n'.repeat(LINE_TEXT_MAX_UNITS)}…`);
    assert.equal(cut!.linkTargetCut, true);
    assert.deepEqual([short!.linkTarget, short!.linkTargetCut], ['short', undefined]);
  });

  it('an unreadable target keeps character + 1 and an empty preview', async () => {
    const s = await shapeLocations([loc(`${ROOT}/gone.ts`, 0, 3)], {
      operation: 'goToDefinition',
      resolvedWorkspaceUri: ROOT,
      readLines: async () => undefined,
    });
    assert.deepEqual(s.locations[0], { path: 'gone.ts', line: 1, column: 4, endLine: 1, endColumn: 5, preview: '' });
  });

  it('a withheld document: no preview, the reason on the location, one note saying how to read it', async () => {
    const outside = 'file:///elsewhere/lib.ts';
    const r = await shapeLocations([loc(outside, 0, 16, 4), loc(`${ROOT}/a.ts`, 0, 7, 1)], {
      operation: 'goToDefinition',
      resolvedWorkspaceUri: ROOT,
      readLines: async (uri) =>
        uri === outside ? { withheld: 'outside the workspace', howToRead: 'ask the user first' } : splitLines('const x = 1;\n'),
    });
    assert.deepEqual(
      r.locations.map((l) => [l.path, l.column, l.preview, l.previewWithheld]),
      [
        ['a.ts', 8, 'const x = 1;', undefined],
        ['/elsewhere/lib.ts', 17, '', 'outside the workspace'],
      ],
    );
    assert.equal(r.previewsWithheld, '1 shown location without preview (outside the workspace): ask the user first');
  });
});

describe('lsp present: hover flattening', () => {
  it('L03: MarkdownString, string and {language, value} flatten to plain text without instanceof', () => {
    assert.equal(flattenHover([{ value: '```typescript\nconst x: 1\n```', isTrusted: false }]), 'const x: 1');
    assert.equal(flattenHover(['plain *doc*']), 'plain *doc*');
    assert.equal(flattenHover([{ language: 'typescript', value: 'const x: number' }]), 'const x: number');
    assert.equal(flattenHover([[{ value: '```ts\nlet a: A\n```' }, { value: 'Docs.' }]]), 'let a: A\n\nDocs.');
  });

  it('L04: empty hovers (empty MarkupContent, empty fences, nulls) are null, never an empty code block', () => {
    assert.equal(flattenHover([{ kind: '', value: '' }]), null);
    assert.equal(flattenHover([{ value: '```typescript\n\n```' }]), null);
    assert.equal(flattenHover([null, undefined, '']), null);
    assert.equal(flattenHover(null), null);
    assert.equal(flattenHover([]), null);
  });

  it('a hover of megabytes is cut to HOVER_MAX_UNITS code units, flagged with its whole length; a short one is whole', () => {
    const shown = shownHover(`a😀${'x'.repeat(1_000_000)}`);
    assert.equal(shown.hover, `a😀${'x'.repeat(HOVER_MAX_UNITS - 3)}…`);
    assert.equal(shown.hoverCut, true);
    assert.equal(shown.hoverUnits, 1_000_003);
    assert.ok(Buffer.byteLength(JSON.stringify(shown)) < 32 * 1024);
    assert.deepEqual(shownHover('const x: 1'), { hover: 'const x: 1' });
    assert.deepEqual(shownHover(null), { hover: null });
    const pair = shownHover(`${'x'.repeat(HOVER_MAX_UNITS - 1)}😀`);
    assert.equal(pair.hover, `${'x'.repeat(HOVER_MAX_UNITS - 1)}…`, 'a surrogate pair is never split');
  });

  it('a "(loading...)" hover (alone or as a prefix) is recognised as not ready', () => {
    assert.equal(isLoadingHover('(loading...)'), true);
    assert.equal(isLoadingHover('(loading...) const x: 1'), true);
    assert.equal(isLoadingHover('(loading...)\nconst x: 1'), true);
    assert.equal(isLoadingHover('loading…'), true);
    assert.equal(isLoadingHover('const loading: 1'), false);
    assert.equal(isLoadingHover(null), false);
  });
});

describe('lsp present: L11 declaration keywords', () => {
  it('a column on `export` snaps to the declared name and says so', () => {
    const s = snapToDeclaredName('export function helper() {}', 1);
    assert.equal(s.column, 17);
    assert.equal(s.token, 'helper');
    assert.match(s.note!, /keyword 'export'; used the declared name 'helper' at column 17/);
    assert.equal(snapToDeclaredName('export default async function run() {}', 8).column, 31);
    assert.equal(snapToDeclaredName('  export const 名前 = 1;', 3).token, '名前');
  });

  it('on a minified line of megabytes: columns in code points past astral characters, keyword snapping, the token under the column', () => {
    const head = '\u{1D4B3}=1;'; // an astral identifier: 2 UTF-16 units, 1 code point
    const line = head + 'var a=1;'.repeat(1024 * 1024) + 'export const last=2;';
    const total = Array.from(line).length;
    const exportCol = total - 'export const last=2;'.length + 1;
    assert.deepEqual(snapToDeclaredName(line, exportCol), {
      column: exportCol + 'export const '.length,
      token: 'last',
      note: `column ${exportCol} is on the keyword 'export'; used the declared name 'last' at column ${exportCol + 13}`,
    });
    assert.deepEqual(snapToDeclaredName(line, 1), { column: 1, token: '\u{1D4B3}' });
    assert.deepEqual(snapToDeclaredName(line, 2), { column: 2, token: '=' });
    assert.deepEqual(snapToDeclaredName(line, 4 + 8 * 500_000 + 5), { column: 4 + 8 * 500_000 + 5, token: 'a' });
    assert.equal(snapToDeclaredName(line, 4 + 8 * 500_000 + 1).token, 'a', "'var' snaps to the name after it");
    assert.deepEqual(snapToDeclaredName(line, total + 5), { column: total + 5, token: '' });
  });

  it('a column on a name stays and names the token; a keyword with nothing after says so', () => {
    assert.deepEqual(snapToDeclaredName('helper();', 3), { column: 3, token: 'helper' });
    assert.deepEqual(snapToDeclaredName('a + b', 3), { column: 3, token: '+' });
    assert.match(snapToDeclaredName('export {', 2).note!, /no declared name follows/);
  });
});
