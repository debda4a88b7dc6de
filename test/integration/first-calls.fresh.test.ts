/**
 * The first navigation calls in a freshly opened window (run by scripts/run-integration.mjs as a
 * host run of its own on test/fixtures/fresh, and ten times per VS Code version by
 * `npm run check:first-calls`): no editor is open and no TypeScript document has been opened when
 * the first test starts. The fixture holds a JavaScript file in no project and three TypeScript
 * projects, so each call is the first for its project: a hover on that file (the very first call of
 * the window by default: before any project loaded), references, diagnostics, then workspace
 * symbols. DSH_FRESH_ORDER (comma separated: loose, references, diagnostics,
 * symbols) changes which comes first. Each test prints how long its call took, and appends
 * `{name, ok, ms, first}` as a JSON line to $DSH_FRESH_TIMINGS when set.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { emit } from '../helpers/host/report';

interface Loc {
  path: string;
  line: number;
  column: number;
  isDeclaration?: boolean;
}

/** The first calls and what makes each one right. */
const CALLS: Record<string, { title: string; run: () => Promise<void> }> = {
  loose: {
    title: 'the first hover on a JavaScript file in no project, before any project loaded, is its full answer',
    run: async () => {
      const r = (
        await invokeTool<{ hover: string | null }>('dsh_lsp', { operation: 'hover', filePath: 'loose/greet.js', line: 2, column: 10 })
      ).json;
      assert.match(r.hover ?? '', /function greet\(name: any\): string/, JSON.stringify(r));
      assert.match(r.hover ?? '', /Says hello to/);
      assert.doesNotMatch(r.hover ?? '', /loading/);
    },
  },
  references: {
    title: 'the first findReferences on an exported function includes the uses in another file, settled',
    run: async () => {
      const r = (
        await invokeTool<{ locations: Loc[]; provisional?: boolean; total: number }>('dsh_lsp', {
          operation: 'findReferences',
          filePath: 'refs/src/geometry.ts',
          line: 1,
          column: 17,
        })
      ).json;
      const at = r.locations.map((l) => `${l.path}:${l.line}:${l.column}${l.isDeclaration ? ' decl' : ''}`).sort();
      assert.deepEqual(
        at,
        ['refs/src/geometry.ts:1:17 decl', 'refs/src/rooms.ts:1:10', 'refs/src/rooms.ts:3:24', 'refs/src/rooms.ts:4:21'],
        JSON.stringify(r),
      );
      assert.equal(r.provisional, undefined, 'a settled answer');
    },
  },
  diagnostics: {
    title: 'the first dsh_diagnostics of a file with a type error reports it, settled',
    run: async () => {
      const r = (
        await invokeTool<{ freshness: string; diagnostics: Array<{ line: number; severity: string; code?: string; message: string }> }>(
          'dsh_diagnostics',
          { filePath: 'diags/src/counter.ts' },
        )
      ).json;
      assert.deepEqual(
        r.diagnostics.map((d) => `${d.line} ${d.severity} ${d.code}`),
        ['5 error 2322'],
        JSON.stringify(r),
      );
      assert.equal(r.freshness, 'settled');
    },
  },
  symbols: {
    title: 'the first dsh_symbols {query} finds a TypeScript function in a project no file of which was opened',
    run: async () => {
      const r = (
        await invokeTool<{ total: number; symbols: Array<{ name: string; kind: string; path: string; line: number; column: number }> }>(
          'dsh_symbols',
          { query: 'squareOf' },
        )
      ).json;
      const hit = r.symbols.find((s) => s.name === 'squareOf');
      assert.ok(hit, JSON.stringify(r));
      assert.deepEqual([hit.kind, hit.path, hit.line, hit.column], ['Function', 'symbols/src/math.ts', 1, 17]);
    },
  },
};

const order = (process.env.DSH_FRESH_ORDER ?? 'loose,references,diagnostics,symbols').split(',').map((s) => s.trim());

describe('first calls in a freshly opened window (test/fixtures/fresh)', function () {
  // A first call may wait up to the 90 s limit of a language that is loading (src/lsp/callLimit.ts).
  this.timeout(150_000);

  before(async () => {
    // Only the tools' registration is awaited: nothing may warm up the language first.
    await waitForTools(['dsh_lsp', 'dsh_symbols', 'dsh_diagnostics']);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    const ts = vscode.workspace.textDocuments.filter((d) => d.languageId === 'typescript').map((d) => d.uri.path);
    assert.deepEqual([tabs, ts], [[], []], 'a fresh window: no editor tab, no TypeScript document open');
  });

  for (const name of order) {
    const call = CALLS[name];
    if (!call) throw new Error(`DSH_FRESH_ORDER names '${name}'; valid: ${Object.keys(CALLS).join(', ')}`);
    it(`${name}: ${call.title}`, async () => {
      const started = Date.now();
      let ok = false;
      try {
        await call.run();
        ok = true;
      } finally {
        const ms = Date.now() - started;
        emit({ text: `    first-call ${name}: ${ms} ms` });
        // npm run check:first-calls collects the outcomes and times of every window here.
        if (process.env.DSH_FRESH_TIMINGS)
          fs.appendFileSync(process.env.DSH_FRESH_TIMINGS, JSON.stringify({ name, ok, ms, first: name === order[0] }) + '\n');
      }
    });
  }
});
