/**
 * The `dsh_lsp` Language Model Tool: definition, references, implementation and hover at a
 * 1-based position, through the navigation seam ({@link LspService}). The model-facing position
 * (1-based line, 1-based column counted in characters) is converted to an LSP position exactly once
 * here (`src/lsp/position.ts`), and result positions back the same way (`src/lsp/shapeLocations.ts`).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { abortOnCancel } from '../../cancellation';
import { askEveryTime } from '../askEveryTime';
import { OutsideReadConsents } from '../../../lsp/containment';
import { headLines, PREVIEW_TEXT_MAX_CHARS } from '../../../lsp/headLines';
import { splitLines } from '../../../lsp/position';
import { DEFAULT_LIMIT, ShapedLocations, shapeLocations, WithheldLines } from '../../../lsp/shapeLocations';
import type { LspService } from '../../../lsp/service';
import type { LspOperation } from '../../../lsp/types';
import { resolveModelPosition, UsedPosition } from '../../../lsp/usedPosition';
import { shownHead } from '../../../lsp/lineWindow';
import { shownHover, type ShownHover } from '../../../lsp/hoverText';
import type { ToolInput } from '../../../tools/declaration';
import { LSP } from '../../../tools/declarations/navigation';
import { extensionOfUri } from '../../../lsp/uri';
import { describeOutside, placeOf, readUriText, UriPlace } from '../../navigation/fileAccess';
import { resolveFile, workspaceUriOf } from '../../navigation/resolveFile';
import { codeFence } from '../markdownText';
import { fitPage } from '../../../lsp/pageSummary';
import { TOOL_OUTPUT_CAP_BYTES, toolResult } from '../toolResult';
import { insideJudge } from '../../navigation/insideJudge';
import { keepInside, OutsideLeftOut, outsideLeftOut } from '../../../lsp/outsideWorkspace';

/**
 * Input of `dsh_lsp` (src/tools/declarations/navigation.ts): a 1-based `line` and `column`
 * (counted in characters, code points), `symbol` to re-anchor the column to, `offset`/`limit` paging.
 */
export type LspToolInput = ToolInput<typeof LSP>;

/** JSON of a locations answer. */
export interface LspToolLocationsJson extends ShapedLocations {
  operation: Exclude<LspOperation, 'hover'>;
  file: string;
  provider: string;
  position: UsedPosition;
  /** Present when the page was cut to stay within the tool result cap (see `fitPage`). */
  capNote?: string;
  /** Present when locations in files outside the workspace were left out: how many, and why. */
  outsideWorkspace?: OutsideLeftOut;
}

/** JSON of a hover answer: `hover` is plain text or `null` (nothing to show), bounded as {@link shownHover} says. */
export interface LspToolHoverJson extends ShownHover {
  operation: 'hover';
  file: string;
  provider: string;
  position: UsedPosition;
}

/**
 * How {@link LspTool.run} may read outside the workspace. `consent(shown)` answers whether the user
 * confirmed reading the file named `shown` (its real path, or URI for other schemes) in this call;
 * without it, a file outside the workspace is refused.
 */
export interface ReadAccess {
  readonly consent?: (shown: string) => boolean;
}

export class LspTool implements vscode.LanguageModelTool<LspToolInput> {
  static readonly toolName = LSP.name;
  private readonly consents = new OutsideReadConsents();

  constructor(private readonly service: LspService) {}

  /**
   * The invocation message, and a confirmation when the file's real path lies outside every
   * workspace folder (the way VS Code's own file tools ask before reading outside the workspace):
   * it names the real path, says it is outside the workspace, names the path given when a symbolic
   * link led there, and says what the answer will show. The consent is recorded for this input and
   * real path; {@link invoke} uses it once. In Restricted Mode nothing is asked: the message says
   * the call will be refused. Input errors are left to {@link invoke}.
   */
  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<LspToolInput>,
    _token?: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    const input = options.input;
    const { operation, filePath, line, column, symbol } = input;
    const invocationMessage = `${String(operation)} at ${shownHead(filePath)}:${String(line)}:${String(column)}${symbol ? ` (${shownHead(symbol)})` : ''}`;
    let place: UriPlace;
    try {
      place = await placeOf((await resolveFile(filePath)).uri);
    } catch {
      return { invocationMessage }; // invoke reports the error
    }
    if (place.inside) return { invocationMessage };
    if (!vscode.workspace.isTrusted)
      return { invocationMessage: `${invocationMessage} (outside the workspace: refused in Restricted Mode)` };
    this.consents.record(callKey(input), place.shown);
    return { invocationMessage, confirmationMessages: outsideConfirmation(place, input) };
  }

  /**
   * Answer one call. Resolves `filePath`, checks where it leads (outside the workspace: only with
   * the consent asked in {@link prepareInvocation}, never in Restricted Mode), reads the document
   * (regular files only, bounded, never blocking), re-anchors the column (`symbol`, or a
   * declaration keyword snapped to the declared name), converts once, queries the seam and shapes
   * the answer: result locations whose real path lies outside the workspace are shown (with their
   * previews) only with that same consent, else left out and counted in `outsideWorkspace`.
   * @throws Error (model-actionable message): file not found (naming the folders
   *   tried); no navigation provider for the extension (listing those served); outside the
   *   workspace without consent or in Restricted Mode; not a regular file, a `/proc` or `/sys`
   *   file, or over the read cap; line out of range (quoting `1..N`); symbol not on the line;
   *   language support not ready; cancelled.
   */
  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<LspToolInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const input = options.input;
    return toolResult(await this.run(input, token, { consent: (shown) => this.consents.consume(callKey(input), shown) }));
  }

  /**
   * The JSON answer of one call. Same errors as {@link invoke}; `access` says whether reading
   * outside the workspace was confirmed (default: it was not).
   */
  async run(
    input: LspToolInput,
    token?: vscode.CancellationToken,
    access: ReadAccess = {},
  ): Promise<LspToolLocationsJson | LspToolHoverJson> {
    const { operation, filePath, line, column, symbol } = input;
    const offset = input.offset ?? 0;
    const limit = input.limit ?? DEFAULT_LIMIT;

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
    const place = await placeOf(target.uri);
    let outsideConfirmed = false;
    if (!place.inside) {
      if (!vscode.workspace.isTrusted) {
        throw new Error(
          `${await describeOutside(place)}. In Restricted Mode dsh_lsp reads only files inside the workspace folders; ` +
            'pass a workspace file, or the user can trust the workspace with the command "Workspaces: Manage Workspace Trust" to be asked instead.',
        );
      }
      if (!access.consent?.(place.shown)) {
        throw new Error(
          `${await describeOutside(place)}: reading it needs the user's confirmation, which this call does not have ` +
            '(VS Code asks when the tool is called through vscode.lm.invokeTool or chat; if the path changed since it was confirmed, call again).',
        );
      }
      outsideConfirmed = true;
    }
    const lines = splitLines(await readUriText(target.uri, place.containment?.realPath));

    const { position: lspPosition, used: position } = resolveModelPosition(lines, line, column, symbol);

    const cancellation = abortOnCancel(token);
    try {
      const workspaceUri = workspaceUriOf(target);
      const result = await this.service.query({ operation, uri: uriText, position: lspPosition, workspaceUri }, cancellation.signal);
      if (result.kind === 'hover') {
        return { operation: 'hover', file: target.shown, provider: served.providerId, position, ...shownHover(result.contents) };
      }
      // Locations outside the workspace name files and positions there: shown only in a call whose
      // read outside the user confirmed (its confirmation says so), else left out and counted.
      const { kept: locations, leftOut } = outsideConfirmed
        ? { kept: result.locations, leftOut: 0 }
        : await keepInside(result.locations, (l) => l.uri, await insideJudge(), cancellation.signal);
      const outside = outsideLeftOut(leftOut, LspTool.toolName, !vscode.workspace.isTrusted);
      // The whole answer within the tool result cap: a page that would not fit is halved, capNote says so.
      return await fitPage(limit, TOOL_OUTPUT_CAP_BYTES, async (pageLimit) => ({
        operation: operation as Exclude<LspOperation, 'hover'>,
        file: target.shown,
        provider: served.providerId,
        position,
        ...(await shapeLocations(locations, {
          operation: operation as Exclude<LspOperation, 'hover'>,
          resolvedWorkspaceUri: result.resolvedWorkspaceUri,
          otherRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
          offset,
          limit: pageLimit,
          readLines: (u) => readPreviewLines(vscode.Uri.parse(u), outsideConfirmed),
        })),
        ...(outside ? { outsideWorkspace: outside } : {}),
        // The language was still loading at the time limit: what it had, said to be incomplete.
        ...(result.provisional ? { provisional: true, provisionalNote: result.provisional } : {}),
      }));
    } finally {
      cancellation.dispose();
    }
  }
}

/**
 * The lines of a result location's document for its preview: read (open editor buffer, else the
 * navigation read) when it lies inside the workspace, or outside it when the user confirmed reading
 * outside in this call and the workspace is trusted; otherwise withheld, saying why and how to ask
 * (a location outside reaches this only in such a call, or in the toolchain folders the
 * `insideJudge` counts as inside).
 * Unreadable files (FIFOs, devices, `/proc`, over the cap, gone) reject: no preview.
 */
async function readPreviewLines(uri: vscode.Uri, outsideConfirmed: boolean): Promise<readonly string[] | WithheldLines> {
  const place = await placeOf(uri);
  if (!place.inside) {
    if (!vscode.workspace.isTrusted) {
      return {
        withheld: 'outside the workspace, Restricted Mode',
        howToRead: 'in Restricted Mode dsh_lsp reads no file outside the workspace folders',
      };
    }
    if (!outsideConfirmed) {
      return {
        withheld: 'outside the workspace',
        howToRead:
          "files outside the workspace are read only with the user's confirmation: call dsh_lsp on such a location's path (e.g. hover at its line and column), which asks the user",
      };
    }
  }
  return headLines(await readUriText(uri, place.containment?.realPath, PREVIEW_TEXT_MAX_CHARS));
}

/** The key of one call for {@link OutsideReadConsents}: its input, serialised with sorted keys. */
function callKey(input: LspToolInput): string {
  const o = input as unknown as Record<string, unknown>;
  return JSON.stringify(o, Object.keys(o).sort());
}

/** The confirmation of a read outside the workspace: what is read (real path), how it was reached, and what the model sees of it. */
function outsideConfirmation(place: UriPlace, input: LspToolInput): { title: string; message: vscode.MarkdownString } {
  const via = place.containment?.via;
  const parts = [
    `\`dsh_lsp\` (${String(input.operation)} at line ${String(input.line)}, column ${String(input.column)}) will read this file, which is outside every workspace folder:`,
    codeFence(place.shown, 'text'),
    ...(via ? ['The path it was given leads there through a symbolic link:', codeFence(via, 'text')] : []),
    'The answer shows the model text from it (the line at the position, hover text), and preview lines of result locations outside the workspace.',
  ];
  // Asked every time over MCP too: allowing a client's tool calls does not allow it to read any file.
  return askEveryTime({ title: 'Read a file outside the workspace?', message: new vscode.MarkdownString(parts.join('\n\n')) });
}
