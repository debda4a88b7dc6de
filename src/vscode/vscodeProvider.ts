/**
 * The seam's VS Code provider: answers the four navigation operations with VS Code's own language
 * features through `vscode.executeDefinitionProvider`, `vscode.executeReferenceProvider`,
 * `vscode.executeImplementationProvider` and `vscode.executeHoverProvider` (the built-in commands
 * documented at https://code.visualstudio.com/api/references/commands).
 *
 * Positions in and out are LSP positions (0-based line, 0-based UTF-16 character), which is what
 * `vscode.Position` is, so no conversion happens here.
 */
import * as vscode from 'vscode';
import { LspError, LspProvider, LspRequest, LspResult, NavLocation, assertNever } from '../lsp/types';
import { abortableSleep, throwIfAborted } from '../lsp/cancellation';
import { shapeAnswer, toNavLocations } from '../lsp/locations';
import { flattenHover } from '../lsp/hoverText';
import { isLoadingHover } from '../lsp/loadingHover';
import { isFileExtension, isLanguageId } from '../lsp/registrationRules';
import { vscodeRealUri } from './vscodeWorkspaceFs';

/** Provider id on the seam. */
export const VSCODE_PROVIDER_ID = 'vscode';

/**
 * The file extensions installed extensions contribute for their languages
 * (`contributes.languages[].extensions` of every entry in `vscode.extensions.all`), lower-cased,
 * as `{'.ts': 'typescript', …}`; multi-dot extensions (`.d.ts`) are skipped (selection uses the
 * last dot), the first language to claim an extension keeps it. `exclude` removes extensions other
 * providers serve (e.g. `.md`, `.markdown`).
 */
export function contributedExtensions(exclude: Iterable<string> = []): Record<string, string> {
  const skip = new Set([...exclude].map((e) => e.toLowerCase()));
  const map: Record<string, string> = {};
  for (const ext of vscode.extensions.all) {
    const languages = (ext.packageJSON as { contributes?: { languages?: unknown } } | undefined)?.contributes?.languages;
    if (!Array.isArray(languages)) continue;
    for (const lang of languages as Array<{ id?: unknown; extensions?: unknown }>) {
      if (!isLanguageId(lang?.id) || !Array.isArray(lang.extensions)) continue;
      for (const raw of lang.extensions) {
        if (typeof raw !== 'string') continue;
        const e = raw.toLowerCase();
        if (!isFileExtension(e) || skip.has(e) || e in map) continue;
        map[e] = lang.id;
      }
    }
  }
  return map;
}

/** Options of {@link VsCodeProvider}. */
export interface VsCodeProviderOptions {
  /**
   * How long (ms) an empty answer is retried while no language feature has answered yet for the
   * document's language (a language server still starting). Default 20000.
   */
  readonly readyTimeoutMs?: number;
  /** First retry delay (ms); doubles up to 1000. Default 100. */
  readonly firstRetryMs?: number;
  /**
   * How long (ms) an empty answer is retried when the language has document symbols but nothing
   * answered non-empty yet (the position may simply have nothing). Default 10000.
   */
  readonly settleMs?: number;
}

/**
 * An {@link LspProvider} that delegates to VS Code's language features.
 *
 * - Opens the document (`openTextDocument`) before asking, so providers see it.
 * - Readiness, per languageId: until the language is ready, every answer comes with a hover probe
 *   at the same position; a "(loading...)" hover (TypeScript's syntax server while the project
 *   loads, whose definitions and references are partial) means "retry". The language is ready once
 *   an answer or the probe is non-empty and not loading. Empty answers are retried with backoff
 *   (100 ms doubling to 1 s) within `readyTimeoutMs`; an empty answer is accepted as "no results"
 *   when the language is ready, or when it has document symbols and `settleMs` passed. Still
 *   nothing at the bound -> `LspError` `no_provider` with `details.reason: 'not_ready'`:
 *   "language support for .x is not available or not ready" (never an empty list).
 * - Locations: `Location` and `LocationLink` (its `targetSelectionRange`, else `targetRange`;
 *   `originSelectionRange` optional), told apart by shape, never `instanceof`. URIs are rebuilt:
 *   `file:` ones with `Uri.file(realpath)` (symbolic links resolved; duplicates by real path and
 *   range removed), others with `Uri.parse`.
 * - `findReferences` unions in the definition(s) and marks the declaration `isDeclaration`.
 * - `resolvedWorkspaceUri` is `Uri.file(realpath(workspace folder))` for `file:` folders.
 */
export class VsCodeProvider implements LspProvider {
  readonly id = VSCODE_PROVIDER_ID;
  private readonly ready = new Set<string>();
  private readonly readyTimeoutMs: number;
  private readonly firstRetryMs: number;
  private readonly settleMs: number;

  /** @param extensions extension -> languageId, e.g. from {@link contributedExtensions}. */
  constructor(
    readonly extensions: Readonly<Record<string, string>>,
    options: VsCodeProviderOptions = {},
  ) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
    this.firstRetryMs = options.firstRetryMs ?? 100;
    // 10 s, not less: under load tsserver answered null hovers (not "(loading...)") for over 3 s
    // after its syntax server already gave document symbols; 3 s was too short for a hover on a fresh file.
    this.settleMs = options.settleMs ?? 10_000;
  }

  /** Answer one request; see the class comment. @throws LspError `file_not_found`, `no_provider` (not ready), `cancelled`. */
  async query(request: LspRequest, signal: AbortSignal): Promise<LspResult> {
    const uri = vscode.Uri.parse(request.uri);
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      throw new LspError('file_not_found', `cannot open ${uri.scheme === 'file' ? uri.fsPath : request.uri}: ${e instanceof Error ? e.message : String(e)}`, { uri: request.uri }, { cause: e });
    }
    const position = new vscode.Position(request.position.line, request.position.character);
    const language = document.languageId;
    const started = Date.now();
    const deadline = started + this.readyTimeoutMs;
    let delay = this.firstRetryMs;
    let symbolsSeen = false;
    for (;;) {
      throwIfAborted(signal);
      const result = await this.ask(request, uri, position);
      // While the language is not known to be ready, a hover probe at the same position tells a
      // server that is still loading (TypeScript answers "(loading...) …" from its syntax server,
      // and partial definitions/references) from one that has the project.
      const probe = this.ready.has(language) ? undefined : request.operation === 'hover' ? result : await this.ask({ ...request, operation: 'hover' }, uri, position);
      const loading = !!result.loading || !!probe?.loading;
      if (!loading) {
        if (!isEmpty(result) || (probe && !isEmpty(probe))) this.ready.add(language);
        if (!isEmpty(result) || this.ready.has(language)) return this.finish(request, result);
        symbolsSeen ||= await hasSymbols(uri);
        // The language has support (document symbols) and stopped loading: the empty answer is real.
        if (symbolsSeen && Date.now() - started >= this.settleMs) return this.finish(request, result);
      }
      if (Date.now() + delay > deadline) break;
      await abortableSleep(delay, signal);
      delay = Math.min(delay * 2, 1000);
    }
    const ext = /\.[^./]+$/.exec(uri.path)?.[0]?.toLowerCase() ?? language;
    throw new LspError(
      'no_provider',
      `language support for ${ext} (${language}) is not available or not ready: nothing answered within ${Math.round(this.readyTimeoutMs / 1000)} s. ` +
        `Install or enable an extension for ${language}, wait for it to finish loading and retry; this is not the same as "no results".`,
      { extension: ext, languageId: language, reason: 'not_ready' },
    );
  }

  private async ask(request: LspRequest, uri: vscode.Uri, position: vscode.Position): Promise<Answer> {
    const op = request.operation;
    switch (op) {
      case 'goToDefinition':
        return { locations: toNavLocations(await exec('vscode.executeDefinitionProvider', uri, position)) };
      case 'goToImplementation':
        return { locations: toNavLocations(await exec('vscode.executeImplementationProvider', uri, position)) };
      case 'findReferences': {
        const [refs, defs] = await Promise.all([
          exec('vscode.executeReferenceProvider', uri, position),
          exec('vscode.executeDefinitionProvider', uri, position),
        ]);
        return { locations: toNavLocations(refs), definitions: toNavLocations(defs) };
      }
      case 'hover': {
        const hovers = await exec('vscode.executeHoverProvider', uri, position);
        const text = flattenHover(Array.isArray(hovers) ? hovers.map((h) => (h as { contents?: unknown })?.contents) : null);
        return { hover: isLoadingHover(text) ? null : text, loading: isLoadingHover(text) };
      }
      default:
        return assertNever(op);
    }
  }

  private finish(request: LspRequest, answer: Answer): Promise<LspResult> {
    return shapeAnswer(request, answer, (u) => vscodeRealUri(u, 'keep'));
  }

}

interface Answer {
  readonly locations?: readonly NavLocation[];
  readonly definitions?: readonly NavLocation[];
  readonly hover?: string | null;
  readonly loading?: boolean;
}

function isEmpty(a: Answer): boolean {
  if (a.loading) return true;
  if (a.hover !== undefined) return a.hover === null;
  return (a.locations?.length ?? 0) === 0 && (a.definitions?.length ?? 0) === 0;
}

async function exec(command: string, uri: vscode.Uri, position: vscode.Position): Promise<unknown[]> {
  const r = await vscode.commands.executeCommand<unknown>(command, uri, position);
  // null, undefined and [] all mean "no results" (the commands answer any of them); a single object is tolerated.
  if (r === null || r === undefined) return [];
  return Array.isArray(r) ? (r as unknown[]) : [r];
}

async function hasSymbols(uri: vscode.Uri): Promise<boolean> {
  try {
    const r = await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', uri);
    return Array.isArray(r) && r.length > 0;
  } catch {
    return false;
  }
}

