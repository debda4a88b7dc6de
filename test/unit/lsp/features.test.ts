// The plain-Node layer of dsh_symbols, dsh_diagnostics and dsh_call_hierarchy: name matching,
// the one conversion of VS Code and LSP answer shapes, paging and placement for the model, the
// bounded call-hierarchy walk, selection of the source by file extension, and the input rules
// (with package.json's schemas in agreement).
import * as assert from 'node:assert/strict';
import { matchSymbolName } from '../../../src/lsp/features/match';
import { nestByRange, toDiagnosticItems, toSymbolItems } from '../../../src/lsp/features/convert';
import { shapeOutline, shapeWorkspaceSymbols } from '../../../src/lsp/features/shapeSymbols';
import { shapeDiagnostics } from '../../../src/lsp/features/shapeDiagnostics';
import { shapeCallTree } from '../../../src/lsp/features/shapeCalls';
import { walkCalls, MAX_CALL_DEPTH, MAX_CALL_NODES, MAX_CALLS_PER_ITEM } from '../../../src/lsp/features/callHierarchy';
import { DETAIL_MAX_UNITS, NAME_MAX_UNITS } from '../../../src/lsp/features/present';
import { DIAGNOSTIC_MESSAGE_MAX_UNITS } from '../../../src/lsp/features/shapeDiagnostics';
import { MAX_CALL_SITES, MAX_OTHER_ITEMS } from '../../../src/lsp/features/shapeCalls';
import { MAX_LISTED_FILES, MAX_LISTED_FILES_BYTES } from '../../../src/lsp/pageSummary';
import { HOVER_MAX_UNITS } from '../../../src/lsp/hoverText';
import { LINE_TEXT_MAX_UNITS } from '../../../src/lsp/lineWindow';
import { formatBytes, TOOL_OUTPUT_CAP_BYTES } from '../../../src/common/toolResultCap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FeatureRegistry } from '../../../src/lsp/features/registry';
import { CALL_HIERARCHY, DIAGNOSTICS, QUERY_MAX_UNITS, SYMBOLS } from '../../../src/tools/declarations/navigation';
import { validateToolInput } from '../../../src/tools/validateInput';
import { SYMBOL_KINDS, type CallEdge, type CallHierarchyProvider, type CallItem, type SymbolItem } from '../../../src/lsp/features/types';
import { LspService } from '../../../src/lsp/service';
import { packageJson } from '../../helpers/packageJson';

const R = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const ROOT = 'file:///ws';
const noLines = async () => undefined;

describe('features beside the seam: matching, conversion, shaping', () => {
  it("names match as VS Code's workspace symbol search: case-insensitive, in order; exact > prefix > substring > scattered", () => {
    assert.ok(matchSymbolName('gsym', 'getSymbols')! > 0);
    assert.equal(matchSymbolName('xyz', 'getSymbols'), undefined);
    assert.equal(matchSymbolName('   ', 'a'), undefined);
    const order = ['Helper', 'HelperClass', 'myHelper', 'hxlxpxr']
      .filter((n) => matchSymbolName('helper', n) !== undefined)
      .sort((a, b) => matchSymbolName('helper', b)! - matchSymbolName('helper', a)!);
    assert.deepEqual(order, ['Helper', 'HelperClass', 'myHelper']);
    assert.equal(matchSymbolName('helper', 'hxlxpxr'), undefined);
    assert.ok(matchSymbolName('hc', 'HelperClass')! > matchSymbolName('hc', 'thecat')!, 'word starts rank above other scattered hits');
  });

  it('DocumentSymbol trees, SymbolInformation lists (VS Code kinds 0-based, LSP 1-based) and both fields at once convert alike', async () => {
    const lsp = await toSymbolItems(
      [
        {
          name: 'A',
          kind: 5,
          range: R(0, 0, 4, 1),
          selectionRange: R(0, 6, 0, 7),
          children: [{ name: 'm', kind: 6, range: R(1, 2, 1, 9), selectionRange: R(1, 2, 1, 3) }],
        },
      ],
      1,
      `${ROOT}/a.ts`,
    );
    assert.deepEqual(
      lsp.map((s) => [s.name, s.kind, s.children?.map((c) => [c.name, c.kind, c.uri])]),
      [['A', 'Class', [['m', 'Method', `${ROOT}/a.ts`]]]],
    );
    const info = await toSymbolItems(
      [{ name: 'f', kind: 11, containerName: 'mod', location: { uri: { toString: () => `${ROOT}/b.ts` }, range: R(2, 0, 3, 1) } }],
      0,
    );
    assert.deepEqual(
      info.map((s) => [s.name, s.kind, s.containerName, s.uri]),
      [['f', 'Function', 'mod', `${ROOT}/b.ts`]],
    );
    assert.deepEqual(
      (await toSymbolItems([{ name: 'w', kind: 13, location: { uri: `${ROOT}/c.ts` } }], 1))[0]!.range,
      R(0, 0, 0, 0),
      'a WorkspaceSymbol without range: the file start',
    );
    assert.deepEqual(await toSymbolItems([null, 3, { kind: 1 }], 1), []);
  });

  it('a flat outline nests by range containment', async () => {
    const flat = await toSymbolItems(
      [
        { name: 'm', kind: 5, location: { uri: `${ROOT}/a.ts`, range: R(1, 2, 1, 9) } },
        { name: 'A', kind: 4, location: { uri: `${ROOT}/a.ts`, range: R(0, 0, 4, 1) } },
        { name: 'g', kind: 11, location: { uri: `${ROOT}/a.ts`, range: R(5, 0, 6, 1) } },
      ],
      0,
    );
    assert.deepEqual(
      (await nestByRange(flat)).map((s) => [s.name, (s.children ?? []).map((c) => c.name)]),
      [
        ['A', ['m']],
        ['g', []],
      ],
    );
  });

  it('diagnostics: severities by base, codes of every shape as text, source kept', async () => {
    const vs = await toDiagnosticItems(
      [
        { range: R(0, 1, 0, 2), severity: 0, message: 'bad', source: 'ts', code: 2322 },
        { range: R(1, 0, 1, 1), severity: 3, message: 'hint', code: { value: 'x', target: {} } },
      ],
      `${ROOT}/a.ts`,
      0,
    );
    assert.deepEqual(
      vs.map((d) => [d.severity, d.code, d.source]),
      [
        ['error', '2322', 'ts'],
        ['hint', 'x', undefined],
      ],
    );
    const lsp = await toDiagnosticItems(
      [
        { range: R(0, 0, 0, 1), severity: 2, message: 'w' },
        { range: R(0, 0, 0, 1), message: 'no severity' },
      ],
      `${ROOT}/a.ts`,
      1,
    );
    assert.deepEqual(
      lsp.map((d) => d.severity),
      ['warning', 'error'],
    );
  });

  it('paging workspace symbols: best score first, node_modules and outside folded into counts, columns in characters', async () => {
    const sym = (name: string, uri: string, line = 0): SymbolItem => ({
      name,
      kind: 'Function',
      uri,
      range: R(line, 0, line, 11),
      selectionRange: R(line, 3, line, 9),
    });
    const scored = [
      { symbol: sym('helperX', `${ROOT}/b.ts`), score: 800 },
      { symbol: sym('helper', `${ROOT}/a.ts`, 1), score: 1000 },
      { symbol: sym('helper', `${ROOT}/a.ts`, 1), score: 1000 },
      { symbol: sym('helper', `${ROOT}/node_modules/x/i.d.ts`), score: 1000 },
      { symbol: sym('helper', 'file:///elsewhere/o.ts'), score: 1000 },
    ];
    const lines = async (uri: string) => (uri.endsWith('a.ts') ? ['', '🍋 helper()'] : undefined);
    const shaped = await shapeWorkspaceSymbols(scored, { roots: [ROOT], offset: 0, limit: 1, readLines: lines });
    assert.deepEqual(shaped.symbols, [{ name: 'helper', kind: 'Function', path: 'a.ts', line: 2, column: 3, endLine: 2, endColumn: 11 }]);
    assert.equal(
      shaped.summary,
      'showing 1–1 of 2 in 2 files; next page: offset 1; 1 in node_modules and 1 outside the workspace not listed (counted in collapsed)',
    );
    assert.deepEqual(shaped.collapsed, {
      nodeModules: { count: 1, files: [{ path: 'node_modules/x/i.d.ts', count: 1 }] },
      external: { count: 1, files: [{ path: '/elsewhere/o.ts', count: 1 }] },
    });
  });

  it('a symbol given by its whole declaration (SymbolInformation) is shown at its name, so it feeds dsh_lsp', async () => {
    const info = await toSymbolItems([{ name: 'helper', kind: 11, location: { uri: `${ROOT}/a.ts`, range: R(0, 0, 2, 1) } }], 0);
    const shaped = await shapeWorkspaceSymbols([{ symbol: info[0]!, score: 1 }], {
      roots: [ROOT],
      offset: 0,
      limit: 5,
      readLines: async () => ['export function helper() {', '}', '}'],
    });
    assert.deepEqual(
      shaped.symbols.map((s) => [s.line, s.column, s.endLine, s.endColumn]),
      [[1, 17, 3, 2]],
    );
  });

  it('an outline page starting past the end says so', async () => {
    const o = await shapeOutline([{ name: 'A', kind: 'Class', uri: `${ROOT}/a.ts`, range: R(0, 0, 1, 0), selectionRange: R(0, 0, 0, 1) }], {
      roots: [ROOT],
      offset: 5,
      limit: 10,
      readLines: noLines,
    });
    assert.equal(o.summary, 'offset 5 is past the end: there are 1 results (use offset 0..0)');
  });

  it('diagnostics in node_modules fold into counts; errors sort before warnings across files', async () => {
    const d = (uri: string, severity: 'error' | 'warning', line: number) => ({
      uri,
      range: R(line, 0, line, 1),
      severity,
      message: `${severity}@${line}`,
    });
    const s = await shapeDiagnostics(
      [d(`${ROOT}/a.ts`, 'warning', 0), d(`${ROOT}/b.ts`, 'error', 3), d(`${ROOT}/node_modules/m.d.ts`, 'error', 0)],
      { roots: [ROOT], offset: 0, limit: 50, readLines: noLines },
    );
    assert.deepEqual(
      s.diagnostics.map((x) => `${x.path}:${x.line} ${x.severity}`),
      ['b.ts:4 error', 'a.ts:1 warning'],
    );
    assert.equal(s.collapsed?.nodeModules?.count, 1);
    assert.deepEqual(s.counts, { error: 1, warning: 1, information: 0, hint: 0 });
  });
});

/** A call graph held in memory (the walker's input, as a registered test provider is dsh_lsp's). */
class GraphProvider implements CallHierarchyProvider {
  readonly id = 'graph';
  asked = 0;
  constructor(private readonly calls: Record<string, string[]>) {}
  item(name: string): CallItem {
    const line = Object.keys(this.calls).indexOf(name);
    return { name, kind: 'Function', uri: `${ROOT}/g.ts`, range: R(line, 0, line, 10), selectionRange: R(line, 9, line, 9 + name.length) };
  }
  async prepare() {
    return [];
  }
  async incoming(item: CallItem): Promise<CallEdge[]> {
    this.asked++;
    return Object.entries(this.calls)
      .filter(([, callees]) => callees.includes(item.name))
      .map(([caller]) => ({ item: this.item(caller), ranges: [R(0, 0, 0, 1)], rangesUri: `${ROOT}/g.ts` }));
  }
  async outgoing(item: CallItem): Promise<CallEdge[]> {
    this.asked++;
    return (this.calls[item.name] ?? []).map((c) => ({ item: this.item(c), ranges: [R(0, 0, 0, 1)], rangesUri: item.uri }));
  }
}

describe('call hierarchy walk', () => {
  const ctx = { workspaceUri: ROOT, signal: new AbortController().signal };
  const names = (n: {
    item: CallItem;
    cycle?: boolean;
    seenAbove?: boolean;
    depthLimit?: boolean;
    calls?: readonly unknown[];
  }): unknown => [
    n.item.name + (n.cycle ? ' (cycle)' : '') + (n.seenAbove ? ' (seen)' : '') + (n.depthLimit ? ' (depth)' : ''),
    ...((n.calls ?? []) as Array<typeof n>).map(names),
  ];

  it('a recursion is reported once and not expanded; an item expanded elsewhere is not expanded again', async () => {
    const g = new GraphProvider({ main: ['a', 'b'], a: ['b', 'a'], b: ['main'] });
    const w = await walkCalls(g, g.item('main'), { direction: 'outgoing', depth: 4 }, ctx);
    assert.deepEqual(names(w.root), ['main', ['a', ['b (seen)'], ['a (cycle)']], ['b', ['main (cycle)']]]);
    assert.equal(w.truncated, false);
  });

  it('depth bounds the walk (leaves say so); incoming calls list callers; the node bound truncates', async () => {
    const g = new GraphProvider({ main: ['a'], a: ['b'], b: ['c'], c: [] });
    assert.deepEqual(names((await walkCalls(g, g.item('main'), { direction: 'outgoing', depth: 1 }, ctx)).root), ['main', ['a (depth)']]);
    assert.deepEqual(names((await walkCalls(g, g.item('c'), { direction: 'incoming', depth: 5 }, ctx)).root), [
      'c',
      ['b', ['a', ['main']]],
    ]);
    const wide = new GraphProvider({ main: ['a', 'b', 'c'], a: [], b: [], c: [] });
    const cut = await walkCalls(wide, wide.item('main'), { direction: 'outgoing', depth: 2, maxNodes: 3 }, ctx);
    assert.equal(cut.truncated, true);
    assert.equal(cut.nodes, 3);
    await assert.rejects(
      walkCalls(g, g.item('main'), { direction: 'outgoing', depth: MAX_CALL_DEPTH + 1 }, ctx),
      /depth must be an integer in 1\.\.5/,
    );
  });

  it('the shaped tree places call sites in the caller (incoming) with previews', async () => {
    const g = new GraphProvider({ main: ['a'], a: [] });
    const w = await walkCalls(g, g.item('a'), { direction: 'incoming', depth: 1 }, ctx);
    const shown = await shapeCallTree(w.root, [ROOT], async () => ['main();  ', 'function a() {}']);
    assert.deepEqual(shown.calls?.[0]?.callSites, [{ path: 'g.ts', line: 1, column: 1, endLine: 1, endColumn: 2, preview: 'main();' }]);
    assert.deepEqual([shown.name, shown.path, shown.line, shown.column], ['a', 'g.ts', 2, 10]);
  });
});

describe('feature selection by file extension and input rules', () => {
  it('a file goes to the feature provider of the navigation provider serving its extension; a missing feature names the source', async () => {
    const service = new LspService();
    service.registerProvider({ id: 'md-links', extensions: { '.md': 'markdown' }, query: async () => ({ kind: 'hover', contents: null }) });
    service.registerProvider({ id: 'vscode', extensions: { '.ts': 'typescript' }, query: async () => ({ kind: 'hover', contents: null }) });
    const registry = new FeatureRegistry(service);
    const g = new GraphProvider({});
    const reg = registry.register('callHierarchy', Object.assign(g, { id: 'vscode' }));
    registry.explainMissing('md-links', 'callHierarchy', 'markdown notes have no call hierarchy');
    assert.equal(registry.forUri('callHierarchy', `${ROOT}/x.d.ts`).provider, g);
    assert.equal(registry.forUri('callHierarchy', `${ROOT}/x.ts`).languageId, 'typescript');
    assert.throws(
      () => registry.forUri('callHierarchy', `${ROOT}/n.md`),
      (e: Error & { code?: string }) => e.code === 'unsupported' && /markdown notes have no call hierarchy/.test(e.message),
    );
    assert.throws(
      () => registry.forUri('symbols', `${ROOT}/x.ts`),
      /symbols is not supported by 'vscode', the provider serving \.ts files/,
    );
    assert.throws(() => registry.forUri('symbols', `${ROOT}/x.xyz`), /no provider for \.xyz files; extensions served: \.md, \.ts/);
    assert.equal(
      registry.owns('callHierarchy', 'vscode', `${ROOT}/n.md`),
      true,
      'md-links has no call hierarchy: nobody else answers for .md',
    );
    reg.dispose();
    assert.throws(() => registry.forUri('callHierarchy', `${ROOT}/x.ts`), /not supported/);
  });

  it('bad input is refused saying what is valid', () => {
    assert.throws(
      () => validateToolInput(SYMBOLS, {}),
      /dsh_symbols: `query` is not valid here \(got nothing\); valid: query \(a symbol name, for workspace symbols\) or filePath/,
    );
    assert.throws(
      () => validateToolInput(SYMBOLS, { query: '  ' }),
      /`query` .*valid: 1\.\.200 characters of a symbol name, not only white space/,
    );
    assert.throws(
      () => validateToolInput(SYMBOLS, { query: 'x'.repeat(QUERY_MAX_UNITS + 1) }),
      /`query` is not valid \(got "x+…" \(201 characters\)\); valid: printable text on one line.*1\.\.200 characters/,
    );
    assert.throws(() => validateToolInput(SYMBOLS, { query: 'a', filePath: 'a.ts' }), /not both/);
    assert.throws(
      () => validateToolInput(SYMBOLS, { query: 'a', kinds: ['Klass'] }),
      /`kinds\[0\]` is not valid \(got "Klass"\); valid: one of File, Module/,
    );
    assert.throws(
      () => validateToolInput(SYMBOLS, { query: 'a', limit: 501 }),
      /`limit` is not valid \(got 501\); valid: an integer in 1\.\.500/,
    );
    assert.throws(
      () => validateToolInput(SYMBOLS, { query: 'a', line: 3 }),
      /`line` is not one of dsh_symbols's inputs \(got 3\); valid: query, filePath, kinds, offset, limit/,
    );
    assert.throws(
      () => validateToolInput(DIAGNOSTICS, { severity: 'fatal' }),
      /`severity` .*valid: one of error, warning, information, hint/,
    );
    assert.throws(
      () => validateToolInput(CALL_HIERARCHY, { filePath: 'a.ts', line: 1, column: 1, direction: 'up' }),
      /`direction` .*valid: one of incoming, outgoing/,
    );
    assert.throws(
      () => validateToolInput(CALL_HIERARCHY, { filePath: 'a.ts', line: 1, column: 1, direction: 'incoming', depth: 9 }),
      /`depth` .*valid: an integer in 1\.\.5/,
    );
    assert.deepEqual(validateToolInput(CALL_HIERARCHY, { filePath: 'a.ts', line: 2, column: 3, direction: 'outgoing' }), {
      filePath: 'a.ts',
      line: 2,
      column: 3,
      direction: 'outgoing',
    });
  });

  it('package.json declares each new tool with exactly the inputs and bounds the code takes', () => {
    const tools = packageJson().contributes.languageModelTools;
    for (const declaration of [SYMBOLS, DIAGNOSTICS, CALL_HIERARCHY]) {
      const tool = tools.find((t) => t.name === declaration.name);
      assert.ok(tool, `${declaration.name} is in package.json`);
      assert.deepEqual(Object.keys(tool.inputSchema.properties).sort(), Object.keys(declaration.input.shape).sort(), declaration.name);
      assert.match(tool.modelDescription, /Returns/);
      assert.match(tool.modelDescription, /Limits/);
    }
    const sym = tools.find((t) => t.name === 'dsh_symbols')!.inputSchema.properties;
    assert.equal(sym.query!.maxLength, QUERY_MAX_UNITS);
    assert.equal(sym.limit!.maximum, 500);
    assert.deepEqual(sym.kinds!.items!.enum, [...SYMBOL_KINDS]);
    const diag = tools.find((t) => t.name === 'dsh_diagnostics')!.inputSchema.properties;
    assert.deepEqual(diag.severity!.enum, ['error', 'warning', 'information', 'hint']);
    const calls = tools.find((t) => t.name === 'dsh_call_hierarchy')!;
    assert.equal(calls.inputSchema.properties.depth!.maximum, MAX_CALL_DEPTH);
    assert.deepEqual(calls.inputSchema.required?.sort(), ['column', 'direction', 'filePath', 'line']);
  });

  it('every size the navigation tools state (package.json, the manual) is the one the code enforces', () => {
    const tools = packageJson().contributes.languageModelTools;
    const cap = formatBytes(TOOL_OUTPUT_CAP_BYTES);
    const toolsDoc = fs.readFileSync(path.join(__dirname, '../../../docs/tools.md'), 'utf8');
    const navigationDoc = fs.readFileSync(path.join(__dirname, '../../../docs/navigation.md'), 'utf8');
    const row = (tool: string) => toolsDoc.split('\n').find((l) => l.startsWith(`| \`${tool}\` |`))!;
    for (const name of ['dsh_symbols', 'dsh_diagnostics', 'dsh_call_hierarchy']) {
      const d = tools.find((t) => t.name === name)!.modelDescription;
      assert.ok(d.includes(`results are capped at ${cap}`), `${name} states the ${cap} cap`);
      assert.ok(
        d.includes(`(at most ${MAX_LISTED_FILES} files;`) || name === 'dsh_call_hierarchy',
        `${name} states ${MAX_LISTED_FILES} files`,
      );
      assert.deepEqual(d.match(/\d+ [KM]iB/g), [cap], `${name} states no other size`);
    }
    const calls = tools.find((t) => t.name === 'dsh_call_hierarchy')!.modelDescription;
    for (const stated of [
      `at most ${MAX_CALL_NODES} items per answer and ${MAX_CALLS_PER_ITEM} calls per item`,
      `at most ${MAX_CALL_SITES} call sites per call`,
      `at most ${MAX_OTHER_ITEMS} otherItems`,
      `a name longer than ${NAME_MAX_UNITS} or a detail longer than ${DETAIL_MAX_UNITS} UTF-16 code units is cut`,
      `depth 1–${MAX_CALL_DEPTH}`,
    ]) {
      assert.ok(calls.includes(stated), stated);
    }
    const symbols = tools.find((t) => t.name === 'dsh_symbols')!.modelDescription;
    assert.ok(
      symbols.includes(
        `a name or containerName longer than ${NAME_MAX_UNITS} or a detail longer than ${DETAIL_MAX_UNITS} UTF-16 code units is cut`,
      ),
    );
    const lsp = tools.find((t) => t.name === 'dsh_lsp')!.modelDescription;
    assert.ok(lsp.includes(`hover text longer than ${HOVER_MAX_UNITS} UTF-16 code units is cut`));
    assert.ok(lsp.includes(`(at most ${MAX_LISTED_FILES} files)`));
    assert.ok(lsp.includes(`results are capped at ${cap} (a page that would not fit is cut, capNote says so`));
    assert.ok(lsp.includes(`linkTarget? (at most ${LINE_TEXT_MAX_UNITS} UTF-16 units`));
    assert.ok(lsp.includes(`a line over ${LINE_TEXT_MAX_UNITS} UTF-16 units is cut`));
    assert.ok(row('dsh_lsp').includes(`hover text over ${HOVER_MAX_UNITS} UTF-16 code units cut`));
    const diagnostics = tools.find((t) => t.name === 'dsh_diagnostics')!.modelDescription;
    assert.ok(
      diagnostics.includes(
        `a message longer than ${DIAGNOSTIC_MESSAGE_MAX_UNITS} or a source or code longer than ${NAME_MAX_UNITS} UTF-16 code units is cut`,
      ),
    );
    assert.ok(row('dsh_lsp').includes(`at most ${MAX_LISTED_FILES} files (${formatBytes(MAX_LISTED_FILES_BYTES)})`));
    assert.ok(
      row('dsh_call_hierarchy').includes(
        `at most ${MAX_CALL_SITES} call sites per call, ${MAX_CALLS_PER_ITEM} calls per item and ${MAX_OTHER_ITEMS} \`otherItems\``,
      ),
    );
    assert.ok(
      row('dsh_call_hierarchy').includes(`names over ${NAME_MAX_UNITS} and details over ${DETAIL_MAX_UNITS} UTF-16 code units cut`),
    );
    assert.ok(row('dsh_symbols').includes(`names over ${NAME_MAX_UNITS} and details over ${DETAIL_MAX_UNITS} UTF-16 code units cut`));
    assert.ok(row('dsh_diagnostics').includes(`messages over ${DIAGNOSTIC_MESSAGE_MAX_UNITS} UTF-16 code units cut`));
    assert.ok(
      navigationDoc.includes(`at most ${MAX_CALL_NODES} call hierarchy items; every answer stays within\nthe ${cap} tool result cap`),
    );
  });
});
