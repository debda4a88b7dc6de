/**
 * The navigation seam's service (plain Node, no `vscode` import): providers register the file
 * extensions they serve; each query is routed to the provider serving the file's extension.
 */

import { integerProblem } from '../common/integerInput';
import { cancelledError, throwIfAborted } from './cancellation';
import { isFileExtension, isLanguageId, isProviderId } from './registrationRules';
import { extensionOfUri, parseUri } from './uri';
import {
  Disposable,
  isLspOperation,
  LSP_OPERATIONS,
  LspError,
  LspProvider,
  LspQuery,
  LspRequest,
  LspResult,
  assertNever,
  isLspError,
} from './types';
import { errorMessage } from '../common/errorMessage';

/** One provider as listed by {@link LspService.describe}: its id and its extensions with their languageIds, sorted. */
export interface ProviderDescription {
  readonly id: string;
  readonly extensions: ReadonlyArray<{ readonly extension: string; readonly languageId: string }>;
}

/** What {@link LspService.describe} returns: providers sorted by id, for an "effective configuration" view. */
export interface ServiceDescription {
  readonly providers: readonly ProviderDescription[];
}

interface Registration {
  readonly provider: LspProvider;
  readonly id: string;
  /** Snapshot of the provider's map taken at registration. */
  readonly extensions: ReadonlyMap<string, string>;
}

/**
 * Builds the fallback provider (see {@link LspService.registerFallback}) for the extensions that
 * are free: `served` lists those other providers serve now (sorted, lower case), which the
 * provider must leave out. `undefined` when it has nothing to serve.
 */
export type FallbackBuilder = (served: readonly string[]) => LspProvider | undefined;

/** What {@link LspService.registerFallback} returns. */
export interface FallbackRegistration extends Disposable {
  /** Build and register the fallback again (e.g. when the set of extensions it could serve changed). */
  refresh(): void;
}

/**
 * Routes navigation queries to providers by file extension.
 *
 * - {@link registerProvider} validates the provider's id and every extension and reserves them all
 *   at once or none; the returned disposer frees them together.
 * - One provider may be the *fallback* ({@link registerFallback}): it serves the extensions no
 *   other provider serves. A provider registered later may take an extension the fallback holds:
 *   the fallback is rebuilt without it, and takes it back when that provider is disposed.
 * - {@link query} picks the provider by the file's extension on every call (independent of
 *   registration order), derives `languageId` from that provider's map and hands over a complete
 *   {@link LspRequest}.
 */
export class LspService {
  private readonly byId = new Map<string, Registration>();
  private readonly byExtension = new Map<string, Registration>();
  private fallback:
    | {
        readonly build: FallbackBuilder;
        current?: { readonly id: string; readonly extensions: ReadonlySet<string>; readonly registration: Disposable };
      }
    | undefined;

  /**
   * Register the fallback provider: `build` is called now, and again whenever a provider that took
   * one of its extensions is registered (before and after: the fallback lets go of all it holds,
   * the provider registers, and the fallback is rebuilt over what is still free, also when that
   * registration fails) or disposed, and on {@link FallbackRegistration.refresh}. Each provider
   * it builds is registered like any other (same validation). There is at most one fallback.
   * @returns a registration whose `dispose()` frees the fallback's extensions and stops rebuilding.
   * @throws LspError `invalid_registration` when a fallback is already registered, or when the
   *   provider built now is invalid.
   */
  registerFallback(build: FallbackBuilder): FallbackRegistration {
    if (this.fallback)
      throw new LspError('invalid_registration', 'a fallback navigation provider is already registered', {
        problems: ['fallback already registered'],
      });
    const mine: NonNullable<LspService['fallback']> = { build };
    this.fallback = mine;
    const refresh = () => {
      if (this.fallback === mine) this.refreshFallback();
    };
    try {
      this.refreshFallback();
    } catch (e) {
      this.fallback = undefined;
      throw e;
    }
    return {
      refresh,
      dispose: () => {
        if (this.fallback !== mine) return;
        this.releaseFallback();
        this.fallback = undefined;
      },
    };
  }

  private releaseFallback(): void {
    const fallback = this.fallback;
    fallback?.current?.registration.dispose();
    if (fallback) fallback.current = undefined;
  }

  /** Rebuild the fallback over the free extensions, if there is one. */
  private refreshFallback(): void {
    const fallback = this.fallback;
    if (!fallback) return;
    this.releaseFallback();
    const provider = fallback.build(this.servedExtensions());
    if (provider)
      fallback.current = { id: provider.id, extensions: new Set(Object.keys(provider.extensions)), registration: this.reserve(provider) };
  }

  /**
   * Register a provider for the extensions in `provider.extensions` (copied now; later changes to
   * the object are ignored).
   *
   * Validation (all problems are collected and reported together; nothing is reserved unless all
   * pass):
   * - `id`: a string of 1–64 letters, digits, `.`, `_`, `-`, starting with a letter or digit, not
   *   already registered;
   * - `extensions`: a non-empty object; every key lower case, one leading dot and no other dot,
   *   no `/`, `\` or whitespace (`.md`, `.ts`); no two keys equal ignoring case (`.TS` and `.ts`);
   *   no key served by another provider; every value a non-empty languageId without whitespace;
   * - `query`: a function.
   *
   * An extension the fallback holds ({@link registerFallback}) is not a conflict: the fallback
   * gives it up.
   *
   * @returns a {@link Disposable} whose `dispose()` frees the id and all extensions together
   *   (idempotent; it never frees what a later registration took).
   * @throws LspError `invalid_registration` with `details.problems: string[]`.
   */
  registerProvider(provider: LspProvider): Disposable {
    const wanted = Object.keys((provider as Partial<LspProvider> | null)?.extensions ?? {}).map((e) => e.toLowerCase());
    const held = this.fallback?.current;
    const overlaps = held !== undefined && provider?.id !== held.id && wanted.some((e) => held.extensions.has(e));
    if (!overlaps) return this.reserve(provider);
    // Release the fallback, register, and let the fallback take what is still free (also on failure).
    this.releaseFallback();
    let registration: Disposable;
    try {
      registration = this.reserve(provider);
    } finally {
      this.refreshFallback();
    }
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        registration.dispose();
        this.refreshFallback();
      },
    };
  }

  /** Validate and reserve, as {@link registerProvider} describes, without regard to the fallback. */
  private reserve(provider: LspProvider): Disposable {
    const problems: string[] = [];
    const p = provider as Partial<LspProvider> | null | undefined;
    if (typeof p !== 'object' || p === null) {
      throw new LspError(
        'invalid_registration',
        `a provider must be an object {id, extensions, query}, got ${p === null ? 'null' : typeof p}`,
        {
          problems: ['not an object'],
        },
      );
    }
    const id = p.id;
    const idText = typeof id === 'string' ? id : String(id);
    if (!isProviderId(id)) {
      problems.push(
        `id ${JSON.stringify(id)} is invalid: use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. 'md-links')`,
      );
    } else if (this.byId.has(id)) {
      problems.push(`id '${id}' is already registered`);
    }
    if (typeof p.query !== 'function') problems.push('query must be a function (request, signal) => Promise<LspResult>');

    const extensions = new Map<string, string>();
    const raw = p.extensions;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`extensions must be an object mapping extension to languageId, e.g. {'.md': 'markdown'}`);
    } else {
      const keys = Object.keys(raw);
      if (keys.length === 0) problems.push(`extensions is empty: a provider must serve at least one extension, e.g. {'.md': 'markdown'}`);
      const seenLower = new Map<string, string>();
      for (const ext of keys) {
        const languageId = (raw as Record<string, unknown>)[ext];
        const lower = ext.toLowerCase();
        if (!isFileExtension(ext)) {
          problems.push(
            `extension ${JSON.stringify(ext)} is invalid: use one leading dot and no other dot, slash or space (e.g. '.ts'; '.d.ts' files are served by '.ts')`,
          );
        } else if (ext !== lower) {
          problems.push(`extension '${ext}' is not lower case: use '${lower}' (files match case-insensitively)`);
        }
        const earlier = seenLower.get(lower);
        if (earlier !== undefined) {
          problems.push(`extension '${ext}' duplicates '${earlier}' in the same provider (extensions compare case-insensitively)`);
        } else {
          seenLower.set(lower, ext);
        }
        if (!isLanguageId(languageId)) {
          problems.push(
            `languageId for '${ext}' must be a non-empty string without spaces (e.g. 'markdown'), got ${JSON.stringify(languageId)}`,
          );
        }
        const owner = this.byExtension.get(lower);
        if (owner) problems.push(`extension '${lower}' is already served by provider '${owner.id}'`);
        if (typeof languageId === 'string') extensions.set(lower, languageId);
      }
    }

    if (problems.length > 0) {
      throw new LspError('invalid_registration', `cannot register navigation provider '${idText}': ${problems.join('; ')}`, {
        providerId: id,
        problems,
      });
    }

    const registration: Registration = { provider, id: id as string, extensions };
    this.byId.set(registration.id, registration);
    for (const ext of extensions.keys()) this.byExtension.set(ext, registration);

    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (this.byId.get(registration.id) === registration) this.byId.delete(registration.id);
        for (const ext of extensions.keys()) {
          if (this.byExtension.get(ext) === registration) this.byExtension.delete(ext);
        }
      },
    };
  }

  /** The extensions currently served, sorted (`['.md', '.markdown', '.ts']`). */
  servedExtensions(): string[] {
    return [...this.byExtension.keys()].sort();
  }

  /**
   * The provider that would serve `uri`, with its id and the derived languageId, or `undefined`.
   * @throws LspError `invalid_request` for a malformed URI.
   */
  providerFor(uri: string): { providerId: string; extension: string; languageId: string } | undefined {
    const extension = extensionOfUri(uri);
    const reg = extension === undefined ? undefined : this.byExtension.get(extension);
    if (!reg || extension === undefined) return undefined;
    return { providerId: reg.id, extension, languageId: reg.extensions.get(extension)! };
  }

  /**
   * Answer one navigation query.
   *
   * The provider is chosen by the file extension of `query.uri` (last dot of the last path
   * segment, case-insensitive: `foo.d.ts` -> `.ts`; dotfiles like `.bashrc` have no extension and
   * match nothing). The provider receives `{...query, languageId}` with `languageId` from its own
   * map.
   *
   * @param query operation, document URI, LSP position (0-based line, 0-based UTF-16 character),
   *   workspace folder URI.
   * @param signal aborts the query; an aborted signal rejects with `cancelled`.
   * @returns `{kind:'locations', locations, resolvedWorkspaceUri}` for goToDefinition,
   *   findReferences and goToImplementation; `{kind:'hover', contents}` for hover.
   * @throws LspError `invalid_request` (malformed field), `no_provider` (with
   *   `details.extension` and `details.servedExtensions`), `cancelled`, `provider_failed` (the
   *   provider threw a non-LspError or answered with the wrong shape; the cause is attached);
   *   LspErrors thrown by the provider pass through unchanged.
   */
  async query(query: LspQuery, signal: AbortSignal = new AbortController().signal): Promise<LspResult> {
    validateQuery(query);
    const extension = extensionOfUri(query.uri);
    const registration = extension === undefined ? undefined : this.byExtension.get(extension);
    if (!registration || extension === undefined) {
      const served = this.servedExtensions();
      const name = parseUri(query.uri).path.split('/').pop() ?? '';
      const what = extension === undefined ? `'${name}' has no file extension` : `no navigation provider for ${extension}`;
      throw new LspError(
        'no_provider',
        `${what}; extensions served: ${served.length > 0 ? served.join(', ') : '(none: no provider is registered)'}`,
        { extension: extension ?? null, servedExtensions: served },
      );
    }
    throwIfAborted(signal);
    const request: LspRequest = {
      operation: query.operation,
      uri: query.uri,
      position: { line: query.position.line, character: query.position.character },
      languageId: registration.extensions.get(extension)!,
      workspaceUri: query.workspaceUri,
    };
    let result: LspResult;
    try {
      result = await registration.provider.query(request, signal);
    } catch (e) {
      if (isLspError(e)) throw e;
      if (signal.aborted) throw cancelledError(signal, undefined, e);
      throw new LspError(
        'provider_failed',
        `navigation provider '${registration.id}' failed on ${query.operation}: ${errorMessage(e)}`,
        { providerId: registration.id },
        { cause: e },
      );
    }
    throwIfAborted(signal);
    checkResult(registration.id, request, result);
    return result;
  }

  /** Providers and their extensions, sorted by id, then extension (for "DSH: Show Effective Configuration"). */
  describe(): ServiceDescription {
    const providers = [...this.byId.values()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((r) => ({
        id: r.id,
        extensions: [...r.extensions.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([extension, languageId]) => ({ extension, languageId })),
      }));
    return { providers };
  }
}

function validateQuery(q: LspQuery): void {
  const problems: string[] = [];
  if (typeof q !== 'object' || q === null)
    throw new LspError('invalid_request', 'a query must be an object {operation, uri, position, workspaceUri}');
  if (!isLspOperation(q.operation)) problems.push(`operation ${JSON.stringify(q.operation)} is not one of ${LSP_OPERATIONS.join(', ')}`);
  for (const field of ['uri', 'workspaceUri'] as const) {
    const v = q[field];
    if (typeof v !== 'string' || v.length === 0) problems.push(`${field} must be a URI string like 'file:///path'`);
    else {
      try {
        parseUri(v);
      } catch (e) {
        problems.push(`${field}: ${errorMessage(e)}`);
      }
    }
  }
  const pos = q.position as { line?: unknown; character?: unknown } | undefined;
  if (typeof pos !== 'object' || pos === null) problems.push('position must be {line, character} (0-based, UTF-16)');
  else {
    for (const f of ['line', 'character'] as const) {
      const problem = integerProblem(pos[f], `position.${f}`, 0, undefined, '0-based');
      if (problem) problems.push(problem);
    }
  }
  if (problems.length > 0) throw new LspError('invalid_request', `invalid navigation query: ${problems.join('; ')}`, { problems });
}

function checkResult(providerId: string, request: LspRequest, result: LspResult): void {
  const bad = (why: string) =>
    new LspError('provider_failed', `navigation provider '${providerId}' answered ${request.operation} with ${why}`, { providerId });
  if (typeof result !== 'object' || result === null) throw bad(String(result));
  const op = request.operation;
  switch (op) {
    case 'hover':
      if (result.kind !== 'hover' || (result.contents !== null && typeof result.contents !== 'string')) {
        throw bad(`kind '${String((result as { kind?: unknown }).kind)}'; expected {kind:'hover', contents: string|null}`);
      }
      return;
    case 'goToDefinition':
    case 'findReferences':
    case 'goToImplementation':
      if (result.kind !== 'locations' || !Array.isArray(result.locations) || typeof result.resolvedWorkspaceUri !== 'string') {
        throw bad(
          `kind '${String((result as { kind?: unknown }).kind)}'; expected {kind:'locations', locations: [], resolvedWorkspaceUri}`,
        );
      }
      return;
    default:
      return assertNever(op);
  }
}
