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
import { LspProvider, LspRequest, LspResult, NavLocation, assertNever } from '../../lsp/types';
import { askUntilSettled } from '../../lsp/askUntilSettled';
import { CallLimit, LOADING_TIMEOUT_MS, READY_TIMEOUT_MS } from '../../lsp/callLimit';
import { notReadyError } from '../../lsp/sourceErrors';
import { shapeAnswer, toNavLocations } from '../../lsp/locations';
import { flattenHover } from '../../lsp/hoverText';
import { isLoadingHover } from '../../lsp/loadingHover';
import { isFileExtension, isLanguageId } from '../../lsp/registrationRules';
import { openDocument, probeLanguage } from './languageLoading';
import { LooseDocuments } from './looseDocuments';
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
   * The call's time limit (ms) while nothing shows the language has support (a file type no
   * extension answers for). Default 20000 (`src/lsp/callLimit.ts`).
   */
  readonly readyTimeoutMs?: number;
  /**
   * The call's time limit (ms) once the language showed support (an extension activating for it,
   * symbols, a "(loading...)" hover, any answer): answers are asked again while it loads. Default
   * 90000 (`src/lsp/callLimit.ts`).
   */
  readonly loadingTimeoutMs?: number;
  /** First wait between attempts (ms); doubles up to 1000. Default 100. */
  readonly firstRetryMs?: number;
  /**
   * How long (ms) an empty answer is asked again when no readiness signal says the language has
   * looked (no hover on the document's first symbol): after it, two empty answers in a row are
   * "no results". Default 10000.
   */
  readonly settleMs?: number;
}

/**
 * An {@link LspProvider} that delegates to VS Code's language features.
 *
 * - Opens the document (`openTextDocument`, no editor tab) before asking, so its language loads
 *   the project (see `./languageLoading.ts`).
 * - Settled answers, through the shared ask-again loop (`src/lsp/askUntilSettled.ts`, 100 ms
 *   doubling to 1 s, within the call's limit: `readyTimeoutMs` while nothing shows the language
 *   has support, `loadingTimeoutMs` once something does, `src/lsp/callLimit.ts`): before each attempt the language is probed
 *   ({@link probeLanguage}: a hover on the document's first symbol). An answer is final
 *   when the probe before it said the project had loaded (a hover that is not TypeScript's
 *   "(loading...)"); provisional while it says loading (TypeScript answers references,
 *   implementations and definitions from open files only then), or when the answer is itself a
 *   "(loading...)" hover. Without a signal (the language has no hover), two answers in a row that
 *   agree are final; an empty one only after `settleMs`.
 * - At the limit: a non-empty provisional answer is returned with `provisional` saying so; no
 *   answer at all is `LspError` `no_provider` with `details.reason: 'not_ready'`: "language
 *   support for .x is not available or not ready" (never an empty list).
 * - Locations: `Location` and `LocationLink` (its `targetSelectionRange`, else `targetRange`;
 *   `originSelectionRange` optional), told apart by shape, never `instanceof`. URIs are rebuilt:
 *   `file:` ones with `Uri.file(realpath)` (symbolic links resolved; duplicates by real path and
 *   range removed), others with `Uri.parse`.
 * - `findReferences` unions in the definition(s) and marks the declaration `isDeclaration`.
 * - `resolvedWorkspaceUri` is `Uri.file(realpath(workspace folder))` for `file:` folders.
 */
export class VsCodeProvider implements LspProvider {
  readonly id = VSCODE_PROVIDER_ID;
  private readonly readyTimeoutMs: number;
  private readonly loadingTimeoutMs: number;
  private readonly firstRetryMs: number;
  private readonly settleMs: number;

  /** @param extensions extension -> languageId, e.g. from {@link contributedExtensions}. */
  constructor(
    readonly extensions: Readonly<Record<string, string>>,
    options: VsCodeProviderOptions = {},
  ) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.loadingTimeoutMs = options.loadingTimeoutMs ?? LOADING_TIMEOUT_MS;
    this.firstRetryMs = options.firstRetryMs ?? 100;
    // 10 s, not less: under load tsserver answered null hovers (not "(loading...)") for over 3 s
    // after its syntax server already gave document symbols; 3 s was too short for a hover on a fresh file.
    this.settleMs = options.settleMs ?? 10_000;
  }

  /** Answer one request; see the class comment. @throws LspError `file_not_found`, `no_provider` (not ready), `cancelled`. */
  async query(request: LspRequest, signal: AbortSignal): Promise<LspResult> {
    const document = await openDocument(request.uri);
    const uri = document.uri;
    const position = new vscode.Position(request.position.line, request.position.character);
    const language = document.languageId;
    const limit = new CallLimit(this.readyTimeoutMs, this.loadingTimeoutMs);
    const loose = new LooseDocuments();
    const outcome = await askUntilSettled<Answer>({
      deadline: limit.deadline,
      signal,
      firstDelayMs: this.firstRetryMs,
      agree: sameAnswer,
      attempt: async () => {
        const before = await probeLanguage(document);
        await loose.seen(document, before, signal);
        const answer = await this.ask(request, uri, position);
        if (before.supported || answer.loading || !isEmpty(answer)) limit.support();
        if (answer.loading) return { answer, state: 'loading' };
        // A hover that is not "(loading...)" is its own signal.
        if (request.operation === 'hover' && !isEmpty(answer)) return { answer, state: 'settled' };
        if (before.state !== 'unknown') return { answer, state: before.state };
        // No signal: answers are final when two agree, an empty
        // one only from a language that has looked at the document (it has symbols) after `settleMs`.
        if (!isEmpty(answer)) return { answer, state: 'unknown' };
        return { answer, state: before.hasSymbols && limit.elapsed() >= this.settleMs ? 'unknown' : 'loading' };
      },
    });
    if (outcome.settled) return this.finish(request, outcome.answer);
    if (outcome.answer && !isEmpty(outcome.answer)) {
      const result = await this.finish(request, outcome.answer);
      if (result.kind === 'hover') return result;
      return {
        ...result,
        provisional: `the ${language} language support was still loading the project after ${Math.round(limit.ms / 1000)} s: this answer came from the files it had loaded and may be incomplete; ask again in a moment`,
      };
    }
    const ext = /\.[^./]+$/.exec(uri.path)?.[0]?.toLowerCase() ?? language;
    throw notReadyError(
      `language support for ${ext} (${language})`,
      limit.hasSupport
        ? `it was still loading after ${Math.round(limit.ms / 1000)} s and answered nothing`
        : `nothing answered within ${Math.round(limit.ms / 1000)} s`,
      `Install or enable an extension for ${language}, wait for it to finish loading and retry`,
      { extension: ext, languageId: language },
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

/** Same locations (and definitions), or the same hover text. */
function sameAnswer(a: Answer, b: Answer): boolean {
  const key = (ls: readonly NavLocation[] | undefined) =>
    (ls ?? [])
      .map((l) => `${l.uri}#${l.range.start.line}:${l.range.start.character}`)
      .sort()
      .join('|');
  return a.hover === b.hover && key(a.locations) === key(b.locations) && key(a.definitions) === key(b.definitions);
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
