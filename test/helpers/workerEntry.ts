// Worker scripts for tests and benchmarks run from source: a worker entry bundled by esbuild as
// esbuild.mjs bundles it for the extension, once per entry and process, into a temp folder removed
// at exit.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const built = new Map<string, string>();

/** Absolute path of the bundle of `source` (a path from the repository's root; built on the first call). */
export function workerEntry(source: string): string {
  const known = built.get(source);
  if (known) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-worker-'));
  const out = path.join(dir, `${path.basename(source, '.ts')}.js`);
  esbuild.buildSync({
    entryPoints: [path.resolve(__dirname, '../..', source)],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  built.set(source, out);
  return out;
}

/** The wiki-link index's note parser worker (src/lsp/wikilinks/noteParseWorker.ts). */
export const noteParseWorkerEntry = (): string => workerEntry('src/lsp/wikilinks/noteParseWorker.ts');

/** The panel mirror's emulator worker (src/terminal/panel/mirrorEmulatorWorker.ts). */
export const mirrorEmulatorEntry = (): string => workerEntry('src/terminal/panel/mirrorEmulatorWorker.ts');

/** The model-text renderer's worker (src/terminal/output/screenTextWorker.ts). */
export const screenTextWorkerEntry = (): string => workerEntry('src/terminal/output/screenTextWorker.ts');

/** The terminal auto-approval judge's worker (src/approval/approvalWorker.ts). */
export const approvalWorkerEntry = (): string => workerEntry('src/approval/approvalWorker.ts');

/** The `wasm` folder of the installed `@vscode/tree-sitter-wasm` (tree-sitter's runtime and the bash grammar). */
export const treeSitterWasmFolder = (): string => path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');

/** The secret redaction worker (src/terminal/secrets/redactionWorker.ts). */
export const redactionWorkerEntry = (): string => workerEntry('src/terminal/secrets/redactionWorker.ts');
