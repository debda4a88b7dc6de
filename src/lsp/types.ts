/**
 * Types of the navigation seam (plain Node, no `vscode` import).
 *
 * Shapes follow the Language Server Protocol 3.17 (`Position`, `Range`, `Location`), see
 * https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#basicJsonStructures
 * Positions at the seam are always LSP positions: 0-based line, 0-based character counted in
 * UTF-16 code units. The model-facing tool is 1-based and counts characters (code points); the
 * conversion lives in `./position.ts` and happens once, at the tool boundary.
 */
import { quoteInput } from '../common/quoteInput';

/**
 * A position in a text document, as in LSP.
 * - `line`: 0-based line index. Lines are separated by `\n`, `\r\n` or `\r` (LSP rule).
 * - `character`: 0-based offset in UTF-16 code units from the start of the line (LSP's default
 *   `positionEncoding: 'utf-16'`); a character beyond the line's length means the end of the line.
 */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A range `[start, end)` in a text document, as in LSP: `end` is exclusive. Both ends are {@link Position}s. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/**
 * A location in a resource, as in LSP: `uri` is an RFC 3986 URI string (`file:///home/me/a.md`,
 * `vscode-remote://ssh-remote+host/home/me/a.md`), percent-encoded; `range` is in LSP positions.
 */
export interface Location {
  readonly uri: string;
  readonly range: Range;
}

/**
 * The four navigation operations: a closed union. Adding a fifth must fail to compile wherever an
 * operation is switched on without handling it: every such switch ends in {@link assertNever}.
 * There is deliberately no escape hatch (no raw protocol messages, no generic JSON-RPC).
 */
export type LspOperation = 'goToDefinition' | 'findReferences' | 'goToImplementation' | 'hover';

/** Every {@link LspOperation}, in a stable order (for validation, schemas and help texts). */
export const LSP_OPERATIONS: readonly LspOperation[] = Object.freeze([
  'goToDefinition',
  'findReferences',
  'goToImplementation',
  'hover',
] as const);

/** True when `value` is one of the four {@link LspOperation} strings (runtime check for untyped input). */
export function isLspOperation(value: unknown): value is LspOperation {
  return typeof value === 'string' && (LSP_OPERATIONS as readonly string[]).includes(value);
}

/**
 * Exhaustiveness helper: call it in the `default` branch of a switch over a closed union.
 * It only type-checks when every member was handled (the argument narrowed to `never`); at run
 * time (an untyped caller slipped an unknown value through) it throws an {@link LspError} with code
 * `invalid_request` naming the value and, when given, the valid ones.
 *
 * @param value the switched-on value, narrowed to `never`.
 * @param what  what the value is, for the message (default `'operation'`).
 * @param valid the valid values, for the message (default {@link LSP_OPERATIONS}).
 * @throws LspError `invalid_request`, always.
 * @example
 * switch (op) { case 'goToDefinition': …; case 'findReferences': …; case 'goToImplementation': …;
 *   case 'hover': …; default: return assertNever(op); }
 */
export function assertNever(value: never, what = 'operation', valid: readonly string[] = LSP_OPERATIONS): never {
  throw new LspError('invalid_request', `unknown ${what} ${quoteInput(value)}; valid: ${valid.join(', ')}`, {
    value,
    valid,
  });
}

/**
 * A request as a provider receives it. Every field is filled by the caller ({@link LspService}
 * derives `languageId`): providers never guess.
 * - `uri`: the document queried (URI string, see {@link Location}).
 * - `position`: LSP position (0-based line, 0-based UTF-16 character).
 * - `languageId`: from the serving provider's extension map (e.g. `.md` -> `markdown`); it names
 *   the language for a transient document only, it never selects the provider.
 * - `workspaceUri`: the workspace folder the document belongs to (URI string); the provider
 *   resolves it (real path) and returns it as `resolvedWorkspaceUri`.
 */
export interface LspRequest {
  readonly operation: LspOperation;
  readonly uri: string;
  readonly position: Position;
  readonly languageId: string;
  readonly workspaceUri: string;
}

/** What a caller hands to {@link LspService.query}: a request without `languageId` (the service derives it). */
export type LspQuery = Omit<LspRequest, 'languageId'>;

/**
 * A location in a navigation result, with optional flags a provider may set.
 * - `isDeclaration`: this location is the declaration itself (`findReferences` always includes it).
 * - `ambiguous` + `candidates`: several targets matched; this one was chosen by a deterministic
 *   rule and `candidates` lists every matching URI (the chosen one first).
 * - `fuzzy`: matched only by a fallback (e.g. slug `my-note` for `My Note`), never silently equal.
 * - `unresolved`: the link at this location points nowhere (nothing is created); `linkTarget` is
 *   the target text as written.
 * - `anchorMissing`: the target resolved but its heading/block anchor was not found; the location
 *   is the file start.
 * - `embed`: the reference is an embed (`![[…]]`).
 * - `originRange`: for definitions, the range of the link's target text at the query position
 *   (like LSP `LocationLink.originSelectionRange`).
 */
export interface NavLocation extends Location {
  readonly isDeclaration?: boolean;
  readonly ambiguous?: boolean;
  readonly candidates?: readonly string[];
  readonly fuzzy?: boolean;
  readonly unresolved?: boolean;
  readonly linkTarget?: string;
  readonly anchorMissing?: boolean;
  readonly embed?: boolean;
  readonly originRange?: Range;
}

/**
 * Result of `goToDefinition`, `findReferences` and `goToImplementation`.
 * `resolvedWorkspaceUri` is the provider's resolved workspace folder (real path, URI string, no
 * trailing slash); callers make locations workspace-relative with it, never by guessing from the
 * request's path. An empty `locations` means "no results".
 * `provisional`, when set, says why the answer may be incomplete: the language was still loading
 * when the call's time limit ran out (the answer is what it had; asking again later may add more).
 */
export interface LocationsResult {
  readonly kind: 'locations';
  readonly locations: readonly NavLocation[];
  readonly resolvedWorkspaceUri: string;
  readonly provisional?: string;
}

/** Result of `hover`: plain text (markdown allowed) or `null` when there is nothing to show. */
export interface HoverResult {
  readonly kind: 'hover';
  readonly contents: string | null;
}

/** A provider's answer: {@link LocationsResult} for the three navigation operations, {@link HoverResult} for `hover`. */
export type LspResult = LocationsResult | HoverResult;

/**
 * A navigation provider behind the seam.
 * - `id`: stable, unique among registered providers; letters, digits, `.`, `_`, `-`, 1–64 chars,
 *   starting with a letter or digit (e.g. `md-links`, `vscode`).
 * - `extensions`: file extension -> languageId, e.g. `{'.md': 'markdown'}`. Keys are lower case,
 *   start with one dot and contain no other dot (`.ts`, not `.d.ts`: selection uses the last dot).
 *   The service copies the map at registration.
 * - `query(request, signal)`: answers one request; rejects with an {@link LspError} (or any Error)
 *   on failure and should stop early when `signal` aborts. `hover` must answer `{kind:'hover'}`,
 *   the other operations `{kind:'locations'}`; `findReferences` must include the declaration.
 */
export interface LspProvider {
  readonly id: string;
  readonly extensions: Readonly<Record<string, string>>;
  query(request: LspRequest, signal: AbortSignal): Promise<LspResult>;
}

export type { Disposable } from '../common/disposable';

/**
 * Stable error codes of the seam (safe to switch on; messages are for people and models):
 * - `no_provider`: no registered provider serves the file's extension.
 * - `invalid_registration`: a provider failed validation (bad id, bad or conflicting extension).
 * - `invalid_request`: a request field is missing or malformed (bad URI, negative position, …).
 * - `line_out_of_range` / `column_out_of_range`: a model position outside the document (1-based).
 * - `symbol_not_found`: the `symbol` to re-anchor on does not occur on the line.
 * - `file_not_found`: the document does not exist.
 * - `outside_workspace`: the document is not inside the request's workspace folder.
 * - `cancelled`: the signal aborted.
 * - `provider_failed`: the provider threw or answered with the wrong shape.
 * - `unsupported`: the source serving the file does not offer the feature asked for (symbols,
 *   diagnostics, call hierarchy beside the seam); the message names the source and the feature.
 */
export type LspErrorCode =
  | 'no_provider'
  | 'invalid_registration'
  | 'invalid_request'
  | 'line_out_of_range'
  | 'column_out_of_range'
  | 'symbol_not_found'
  | 'file_not_found'
  | 'outside_workspace'
  | 'cancelled'
  | 'provider_failed'
  | 'unsupported';

/**
 * The seam's error: `code` is stable ({@link LspErrorCode}); `message` says what was wrong and what
 * is valid; `details` carries machine-readable context (e.g. `{extension, servedExtensions}` for
 * `no_provider`, `{problems}` for `invalid_registration`, `{validRange}` for positions).
 */
export class LspError extends Error {
  override readonly name = 'LspError';
  constructor(
    readonly code: LspErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * True for an {@link LspError}, also one from another copy of this module (another extension's
 * bundle): checks `name === 'LspError'` and a string `code` rather than `instanceof`.
 */
export function isLspError(e: unknown): e is LspError {
  return (
    e instanceof LspError ||
    (typeof e === 'object' &&
      e !== null &&
      (e as { name?: unknown }).name === 'LspError' &&
      typeof (e as { code?: unknown }).code === 'string')
  );
}
