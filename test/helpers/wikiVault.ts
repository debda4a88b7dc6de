// Shared helpers of the wiki-link unit tests: real temp vaults on disk, the real provider behind the
// real seam, and readable 1-based renderings of results. Not a test file itself.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LspService } from '../../src/lsp/service';
import { LspOperation, LspResult, NavLocation } from '../../src/lsp/types';
import { splitLines, toLspPosition, toModelPosition } from '../../src/lsp/position';
import { MdLinksOptions, MdLinksProvider } from '../../src/lsp/wikilinks/provider';
import { NodeWorkspaceFs } from '../../src/lsp/wikilinks/nodeFs';
import { fileUriToPath, pathToFileUri } from '../../src/lsp/uri';
import { relativePathOf } from '../../src/lsp/uri';

/** Write `files` (workspace-relative path -> text) into a fresh temp folder; returns its real path. */
export function makeVaultDir(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-wiki-')));
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return dir;
}

/** Every file under `dir` with its size and mtime, to prove that nothing was created or written. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.lstatSync(p);
        out[path.relative(dir, p)] = `${st.size}:${st.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** A vault on disk with the md-links provider registered on a real LspService. */
export class Vault {
  readonly rootUri: string;
  readonly service = new LspService();
  readonly provider: MdLinksProvider;

  constructor(
    readonly dir: string,
    options: MdLinksOptions = {},
    readonly workspaceUri = pathToFileUri(dir),
  ) {
    this.rootUri = pathToFileUri(dir);
    this.provider = new MdLinksProvider(new NodeWorkspaceFs(), options);
    this.service.registerProvider(this.provider);
  }

  static create(files: Record<string, string>, options: MdLinksOptions = {}): Vault {
    return new Vault(makeVaultDir(files), options);
  }

  uri(rel: string): string {
    return pathToFileUri(path.join(this.dir, ...rel.split('/')));
  }

  /** Query at a model position (1-based line, 1-based column in characters), converted once like the tool does. */
  async query(operation: LspOperation, rel: string, line: number, column: number, signal?: AbortSignal): Promise<LspResult> {
    const text = fs.readFileSync(path.join(this.dir, ...rel.split('/')), 'utf8');
    const { position } = toLspPosition(text, { line, column });
    return this.service.query(
      { operation, uri: this.uri(rel), position, workspaceUri: this.workspaceUri },
      signal ?? new AbortController().signal,
    );
  }

  /** Query at the first occurrence of `needle` in the file (its first character). */
  async queryAt(operation: LspOperation, rel: string, needle: string, signal?: AbortSignal): Promise<LspResult> {
    const text = fs.readFileSync(path.join(this.dir, ...rel.split('/')), 'utf8');
    const lines = splitLines(text);
    const line = lines.findIndex((l) => l.includes(needle));
    if (line < 0) throw new Error(`'${needle}' not in ${rel}`);
    const { column } = toModelPosition(lines, { line, character: lines[line]!.indexOf(needle) });
    return this.query(operation, rel, line + 1, column, signal);
  }

  /** Locations of a result rendered as `path:line:column` (1-based, columns in characters) plus flags. */
  render(result: LspResult): string[] {
    if (result.kind !== 'locations') throw new Error(`expected locations, got ${JSON.stringify(result)}`);
    return result.locations.map((l) => renderLocation(result.resolvedWorkspaceUri, l));
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `path:line:column` of a location (1-based; columns in code points), then its flags in a fixed order. */
export function renderLocation(rootUri: string, l: NavLocation): string {
  const rel = relativePathOf(rootUri, l.uri) ?? l.uri;
  const text = fs.readFileSync(fileUriToPath(l.uri), 'utf8');
  const p = toModelPosition(text, l.range.start);
  const flags: string[] = [];
  if (l.isDeclaration) flags.push('declaration');
  if (l.embed) flags.push('embed');
  if (l.ambiguous) flags.push(`ambiguous[${(l.candidates ?? []).map((c) => relativePathOf(rootUri, c) ?? c).join(',')}]`);
  if (l.fuzzy) flags.push('fuzzy');
  if (l.unresolved) flags.push(`unresolved(${l.linkTarget})`);
  if (l.anchorMissing) flags.push('anchorMissing');
  return `${rel}:${p.line}:${p.column}${flags.length ? ' ' + flags.join(' ') : ''}`;
}
