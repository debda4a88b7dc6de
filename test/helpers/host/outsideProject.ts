// A TypeScript file outside the workspace reached through a folder symlink inside it, for the
// tests that navigation answers leave out what lies outside (trusted and Restricted Mode runs).
// `ts/dsh-outlink` → a temp folder outside holding `secretLib.ts`; `ts/dsh-uses-outside.ts` in the
// workspace imports and calls its function. Runs in the extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool } from './lm';
import { until } from '../wait';

/** The function declared only outside the workspace. */
export const OUTSIDE_FN = 'dshOutsideSecretFunction';
/** The workspace file that calls it: line 3 `export function useOutside(): number {`, line 4 `  return dshOutsideSecretFunction();`. */
export const USES_OUTSIDE = 'ts/dsh-uses-outside.ts';
/** 1-based position of the call of {@link OUTSIDE_FN} in {@link USES_OUTSIDE}. */
export const CALL_AT = { line: 4, column: 10 };
/** 1-based position of `useOutside`'s name in {@link USES_OUTSIDE}. */
export const USE_OUTSIDE_AT = { line: 3, column: 17 };

/** Answers' fields these tests read. */
export interface OutsideAnswer {
  symbols?: { name: string; path: string }[];
  locations?: { path: string; line: number }[];
  root?: { name: string; calls?: { name: string; path: string }[] };
  outsideWorkspace?: { leftOut: number; why: string };
}

/** Makes the outside folder and the link; returns the outside folder's real path and a cleanup. */
export function makeOutsideProject(): { outside: string; remove(): void } {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-outside-project-')));
  fs.writeFileSync(path.join(outside, 'secretLib.ts'), `export function ${OUTSIDE_FN}(): number {\n  return 42;\n}\n`);
  const link = path.join(root, 'ts/dsh-outlink');
  fs.rmSync(link, { force: true });
  fs.symlinkSync(outside, link);
  fs.writeFileSync(
    path.join(root, USES_OUTSIDE),
    `import { ${OUTSIDE_FN} } from './dsh-outlink/secretLib';\n\nexport function useOutside(): number {\n  return ${OUTSIDE_FN}();\n}\n`,
  );
  return {
    outside,
    remove() {
      fs.rmSync(link, { force: true });
      fs.rmSync(path.join(root, USES_OUTSIDE), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    },
  };
}

/** Whether `p` (a path as an answer shows it) names the outside file, through the link or not. */
export function namesOutside(p: string, outside: string): boolean {
  return p.includes('dsh-outlink') || p.startsWith(outside) || p.includes('secretLib');
}

/** `call`, asked again while TypeScript is not ready (it loads the project), up to 90 s. */
export async function whenReady<T>(call: () => Promise<T>): Promise<T> {
  const end = Date.now() + 90_000;
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!/not available or not ready/.test(String(e)) || Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * The workspace symbol search for {@link OUTSIDE_FN} once TypeScript has loaded the file through
 * the link (it reports a result, shown or left out): the answer must show nothing from outside.
 */
export async function searchedSymbols(): Promise<OutsideAnswer> {
  let last: OutsideAnswer = {};
  await until(
    'TypeScript to find the outside function',
    async () => {
      last = (await invokeTool<OutsideAnswer>('dsh_symbols', { query: OUTSIDE_FN })).json;
      return (last.symbols?.length ?? 0) > 0 || (last.outsideWorkspace?.leftOut ?? 0) > 0;
    },
    90_000,
    1000,
  );
  return last;
}

/** Asserts `answer` shows nothing from outside; when it left something out, it says why. */
export function assertNothingOutside(answer: OutsideAnswer, outside: string): void {
  const paths = [...(answer.symbols ?? []), ...(answer.locations ?? []), ...(answer.root?.calls ?? [])].map((x) => x.path);
  assert.deepEqual(
    paths.filter((p) => namesOutside(p, outside)),
    [],
    JSON.stringify(answer),
  );
  if (answer.outsideWorkspace) assert.match(answer.outsideWorkspace.why, /outside the workspace folders \(judged by real path/);
}

/** Asserts `answer` shows nothing from outside and says it left `at least` results out. */
export function assertLeftOut(answer: OutsideAnswer, outside: string, atLeast = 1): void {
  assertNothingOutside(answer, outside);
  assert.ok((answer.outsideWorkspace?.leftOut ?? 0) >= atLeast, `the answer says what it left out: ${JSON.stringify(answer)}`);
}
