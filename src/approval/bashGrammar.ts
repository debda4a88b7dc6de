/**
 * tree-sitter-bash as VS Code ships it (`@vscode/tree-sitter-wasm`: web-tree-sitter's runtime and
 * the bash grammar, both WebAssembly), loaded once per thread (plain Node, no `vscode` import).
 * A parse is bounded: text over {@link MAX_PARSE_CHARS} is not parsed, and a parse is stopped
 * after `timeBoundMs` (web-tree-sitter's progress callback). Run it in a worker thread
 * (approvalThread.ts): a 10 KB line takes milliseconds, more than the extension host thread may give.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BashParse, SyntaxNode } from './syntaxTree';

/** Longest text parsed, in UTF-16 code units (64 Ki): longer lines are never auto approved. */
export const MAX_PARSE_CHARS = 64 * 1024;

/** The runtime's module as `@vscode/tree-sitter-wasm/wasm/tree-sitter.js` exports it (the parts used). */
interface TreeSitterModule {
  Parser: {
    init(options: { locateFile: (file: string) => string }): Promise<void>;
    new (): TreeSitterParser;
  };
  Language: { load(bytes: Uint8Array): Promise<unknown> };
}

interface TreeSitterParser {
  setLanguage(language: unknown): void;
  reset(): void;
  parse(text: string, oldTree: null, options: { progressCallback: () => boolean }): { rootNode: SyntaxNode; delete(): void } | null;
}

/** A loaded bash parser: `parse` answers the root node of a tree kept until the next parse. */
export interface BashGrammar {
  /** Parses `source` within `timeBoundMs`; undefined when stopped at the bound or `source` is over MAX_PARSE_CHARS. */
  parser(timeBoundMs: number): BashParse;
}

/**
 * Loads the runtime and the grammar from `wasmFolder` (the package's `wasm` folder, holding
 * `tree-sitter.js`, `tree-sitter.wasm` and `tree-sitter-bash.wasm`).
 * @throws Error when a file is missing or the WebAssembly does not load.
 */
export async function loadBashGrammar(wasmFolder: string): Promise<BashGrammar> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require(path.join(wasmFolder, 'tree-sitter.js')) as TreeSitterModule;
  await ts.Parser.init({ locateFile: (file) => path.join(wasmFolder, file) });
  const bash = await ts.Language.load(fs.readFileSync(path.join(wasmFolder, 'tree-sitter-bash.wasm')));
  const parser = new ts.Parser();
  parser.setLanguage(bash);
  const trees: { delete(): void }[] = [];
  return {
    parser(timeBoundMs) {
      // Trees of one analysis (the line and the code of its `bash -c`) live until the next analysis.
      for (const t of trees.splice(0)) t.delete();
      const deadline = performance.now() + timeBoundMs;
      return (source) => {
        if (source.length > MAX_PARSE_CHARS) return undefined;
        parser.reset();
        const tree = parser.parse(source, null, { progressCallback: () => performance.now() > deadline });
        if (!tree) return undefined;
        trees.push(tree);
        return tree.rootNode;
      };
    },
  };
}
