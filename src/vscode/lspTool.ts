/**
 * The `dsh_lsp` Language Model Tool: definition, references, implementation and hover at a
 * 1-based position, through the navigation seam ({@link LspService}). The model-facing position
 * (1-based line, 1-based column counted in characters) is converted to an LSP position exactly once
 * here (`src/lsp/position.ts`), and result positions back the same way (`src/lsp/present.ts`).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { splitLines, toLspPosition, anchorToSymbol } from '../lsp/position';
import { DEFAULT_LIMIT, MAX_LIMIT, ShapedLocations, shapeLocations, snapToDeclaredName } from '../lsp/present';
import type { LspService } from '../lsp/service';
import { LSP_OPERATIONS, LspOperation, isLspOperation } from '../lsp/types';
import { extensionOfUri } from '../lsp/uri';
import { toolResult } from './terminalTools';

/** Input of `dsh_lsp` (mirrors its `inputSchema` in package.json). */
export interface LspToolInput {
  operation: LspOperation;
  /** Workspace-relative (`src/a.ts`, resolved against each workspace folder in order) or absolute path. */
  filePath: string;
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in characters (code points). */
  column: number;
  /** Identifier on `line` to re-anchor the column to (nearest occurrence at identifier boundaries). */
  symbol?: string;
  /** 0-based index of the first location to show (paging). Default 0. */
  offset?: number;
  /** Page size, 1..500. Default 50. */
  limit?: number;
}

/** The position the tool actually used, as shown to the model (1-based). */
export interface UsedPosition {
  line: number;
  column: number;
  /** The text of that line. */
  lineText: string;
  /** The token at the column (identifier or character), `''` on whitespace. */
  token: string;
  /** Why the column differs from the one given (symbol re-anchoring, keyword snapping, clamping). */
  note?: string;
}

/** JSON of a locations answer. */
export interface LspToolLocationsJson extends ShapedLocations {
  operation: Exclude<LspOperation, 'hover'>;
  file: string;
  provider: string;
  position: UsedPosition;
}

/** JSON of a hover answer: `hover` is plain text or `null` (nothing to show). */
export interface LspToolHoverJson {
  operation: 'hover';
  file: string;
  provider: string;
  position: UsedPosition;
  hover: string | null;
}

/** Where a file path leads: its URI, the workspace folder it belongs to (or the first one), and the path to show. */
interface Target {
  uri: vscode.Uri;
  folder: vscode.WorkspaceFolder | undefined;
  shown: string;
}

export class LspTool implements vscode.LanguageModelTool<LspToolInput> {
  static readonly toolName = 'dsh_lsp';

  constructor(private readonly service: LspService) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<LspToolInput>): vscode.PreparedToolInvocation {
    const { operation, filePath, line, column, symbol } = options.input ?? ({} as LspToolInput);
    return { invocationMessage: `${String(operation)} at ${String(filePath)}:${String(line)}:${String(column)}${symbol ? ` (${symbol})` : ''}` };
  }

  /**
   * Answer one call. Resolves `filePath`, reads the document, re-anchors the column (`symbol`, or
   * a declaration keyword snapped to the declared name), converts once, queries the seam and shapes
   * the answer.
   * @throws Error (model-actionable message): invalid input; file not found (naming the folders
   *   tried); no navigation provider for the extension (listing those served); line out of range
   *   (quoting `1..N`); symbol not on the line; language support not ready; cancelled.
   */
  async invoke(options: vscode.LanguageModelToolInvocationOptions<LspToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run((options.input ?? {}) as LspToolInput, token));
  }

  /** The JSON answer of one call (also used by the palette commands). Same errors as {@link invoke}. */
  async run(input: LspToolInput, token?: vscode.CancellationToken): Promise<LspToolLocationsJson | LspToolHoverJson> {
    const { operation, filePath, line, column, symbol } = validate(input);
    const offset = optionalInt(input.offset, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const limit = optionalInt(input.limit, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;

    const target = await resolveFile(filePath);
    const uriText = target.uri.toString();
    const served = this.service.providerFor(uriText);
    if (!served) {
      const ext = extensionOfUri(uriText);
      const list = this.service.servedExtensions();
      throw new Error(
        `${ext ? `no navigation provider for ${ext}` : `'${path.posix.basename(target.uri.path)}' has no file extension, so no navigation provider serves it`}; ` +
          `extensions served: ${list.join(', ') || '(none)'}. Use text search for this file instead.`,
      );
    }
    const lines = splitLines(await readText(target.uri));

    // Re-anchor, then convert once (line_out_of_range quotes 1..N).
    const converted0 = toLspPosition(lines, { line, column: 1 });
    const lineText = converted0.lineText;
    let used = column;
    let note: string | undefined;
    let tokenText: string;
    if (symbol !== undefined) {
      const anchor = anchorToSymbol(lineText, column, symbol);
      used = anchor.column;
      tokenText = symbol;
      if (used !== column) note = `re-anchored to '${symbol}' at column ${used}${anchor.occurrences.length > 1 ? ` (occurrences at columns ${anchor.occurrences.join(', ')})` : ''}`;
    } else {
      const snap = snapToDeclaredName(lineText, column);
      used = snap.column;
      tokenText = snap.token;
      note = snap.note;
    }
    const converted = toLspPosition(lines, { line, column: used });
    if (converted.clamped) {
      const end = Array.from(lineText).length + 1;
      note = `${note ? note + '; ' : ''}column ${used} is past the end of the line; used column ${end}`;
      used = end;
    }
    const position: UsedPosition = { line, column: used, lineText, token: tokenText, ...(note ? { note } : {}) };

    const controller = new AbortController();
    const sub = token?.onCancellationRequested(() => controller.abort('the tool call was cancelled'));
    if (token?.isCancellationRequested) controller.abort('the tool call was cancelled');
    try {
      const workspaceUri = (target.folder?.uri ?? vscode.Uri.file(path.dirname(target.uri.fsPath))).toString();
      const result = await this.service.query({ operation, uri: uriText, position: converted.position, workspaceUri }, controller.signal);
      if (result.kind === 'hover') {
        return { operation: 'hover', file: target.shown, provider: served.providerId, position, hover: result.contents };
      }
      const shaped = await shapeLocations(result.locations, {
        operation: operation as Exclude<LspOperation, 'hover'>,
        resolvedWorkspaceUri: result.resolvedWorkspaceUri,
        otherRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
        offset,
        limit,
        readLines: async (u) => splitLines(await readText(vscode.Uri.parse(u))),
      });
      return { operation: operation as Exclude<LspOperation, 'hover'>, file: target.shown, provider: served.providerId, position, ...shaped };
    } finally {
      sub?.dispose();
    }
  }
}

function validate(input: LspToolInput): { operation: LspOperation; filePath: string; line: number; column: number; symbol?: string } {
  const i = input as unknown as Record<string, unknown>;
  if (!isLspOperation(i.operation)) throw new Error(`operation must be one of ${LSP_OPERATIONS.join(', ')} (got ${JSON.stringify(i.operation)})`);
  if (typeof i.filePath !== 'string' || i.filePath.trim() === '') throw new Error('filePath is required: a workspace-relative path like "src/a.ts" or an absolute path');
  for (const k of ['line', 'column'] as const) {
    if (typeof i[k] !== 'number' || !Number.isInteger(i[k])) throw new Error(`${k} must be a 1-based integer (got ${JSON.stringify(i[k])})`);
  }
  if ((i.column as number) < 1) throw new Error(`column ${String(i.column)} is invalid: columns are 1-based and counted in characters`);
  if (i.symbol !== undefined && i.symbol !== null && (typeof i.symbol !== 'string' || i.symbol === '')) throw new Error('symbol, when given, must be the non-empty identifier text on the line');
  return {
    operation: i.operation,
    filePath: i.filePath,
    line: i.line as number,
    column: i.column as number,
    ...(typeof i.symbol === 'string' ? { symbol: i.symbol } : {}),
  };
}

function optionalInt(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Error(`${name} must be an integer in ${min}..${max === Number.MAX_SAFE_INTEGER ? '∞' : max} (got ${JSON.stringify(v)})`);
  return v;
}

/** Resolve `filePath`: absolute as is; relative against each workspace folder in order (first existing wins). */
async function resolveFile(filePath: string): Promise<Target> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const candidates: vscode.Uri[] = [];
  if (path.isAbsolute(filePath)) candidates.push(vscode.Uri.file(filePath));
  else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(filePath)) candidates.push(vscode.Uri.parse(filePath));
  else for (const f of folders) candidates.push(vscode.Uri.joinPath(f.uri, ...filePath.replace(/\\/g, '/').split('/').filter(Boolean)));
  for (const uri of candidates) {
    try {
      const isDirectory = uri.scheme === 'file' ? (await fsp.stat(uri.fsPath)).isDirectory() : ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
      if (isDirectory) throw new Error(`${filePath} is a folder; pass a file path`);
      const folder = vscode.workspace.getWorkspaceFolder(uri) ?? folders[0];
      const shown = folder && vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, folders.length > 1) : uri.scheme === 'file' ? uri.fsPath : uri.toString();
      return { uri, folder, shown };
    } catch (e) {
      if (e instanceof Error && /is a folder/.test(e.message)) throw e;
    }
  }
  const where =
    path.isAbsolute(filePath) || candidates.length === 0
      ? folders.length === 0
        ? ' (no workspace folder is open: pass an absolute path)'
        : ''
      : ` (relative paths are resolved against the workspace folder${folders.length > 1 ? 's' : ''} ${folders.map((f) => f.uri.fsPath).join(', ')})`;
  throw new Error(`file not found: ${filePath}${where}. Check the path, e.g. list the folder first.`);
}

/**
 * The text of a document: the open editor buffer when there is one (unsaved edits included), else
 * the file's bytes as UTF-8 (Node's fs for `file:` URIs: the extension runs where the files are;
 * `vscode.workspace.fs` for other schemes).
 */
async function readText(uri: vscode.Uri): Promise<string> {
  const key = uri.toString();
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  if (open) return open.getText();
  const bytes = uri.scheme === 'file' ? await fsp.readFile(uri.fsPath) : await vscode.workspace.fs.readFile(uri);
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
