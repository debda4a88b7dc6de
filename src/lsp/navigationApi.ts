/**
 * The navigation operations other extensions get (`exports.navigation`): a frozen object of
 * functions bound to the service by closure. Nothing reachable from it leads to the service, its
 * registration tables or another provider's object: a registered provider is copied (id,
 * extensions, query read once); answers and errors leave as plain data (an error keeps its code,
 * message and JSON details, not the provider's original error as `cause`).
 */
import { LspError, isLspError } from './types';
import type { Disposable, LspProvider, LspQuery, LspResult } from './types';
import type { LspService, ServiceDescription } from './service';
import { errorMessage } from '../common/errorMessage';

/** What `exports.navigation` offers; each function behaves as the {@link LspService} method of that name. */
export interface NavigationApi {
  /** Serves `dsh_lsp` (and the palette commands) for `provider.extensions`; see {@link LspService.registerProvider}. */
  registerProvider(provider: LspProvider): Disposable;
  /** Answers one query through the provider serving the file's extension (LSP positions, 0-based). */
  query(query: LspQuery, signal?: AbortSignal): Promise<LspResult>;
  /** The provider that would serve `uri`, or undefined. */
  providerFor(uri: string): { providerId: string; extension: string; languageId: string } | undefined;
  /** Provider ids and their extensions, sorted. */
  describe(): ServiceDescription;
  /** Extensions served, sorted. */
  servedExtensions(): string[];
}

/** Builds the facade over `service`. @returns a frozen {@link NavigationApi}. */
export function createNavigationApi(service: LspService): NavigationApi {
  return Object.freeze({
    registerProvider(provider: LspProvider): Disposable {
      const registration = service.registerProvider(snapshot(provider));
      return Object.freeze({ dispose: () => registration.dispose() });
    },
    async query(query: LspQuery, signal?: AbortSignal): Promise<LspResult> {
      const q = query as Partial<LspQuery> | null | undefined;
      const copy =
        typeof q === 'object' && q !== null
          ? { ...q, position: typeof q.position === 'object' && q.position !== null ? { ...q.position } : q.position }
          : q;
      try {
        return plain(await service.query(copy as LspQuery, signal));
      } catch (error) {
        throw publicError(error);
      }
    },
    providerFor: (uri: string) => {
      try {
        return service.providerFor(uri);
      } catch (error) {
        throw publicError(error);
      }
    },
    describe: () => plain(service.describe()),
    servedExtensions: () => service.servedExtensions(),
  });
}

/** The provider's id, extensions and query, each read once; the query keeps the provider as `this`. */
function snapshot(provider: LspProvider): LspProvider {
  if (typeof provider !== 'object' || provider === null) return provider;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- read once here; called below with the provider as `this`
  const { id, extensions, query } = provider;
  return {
    id,
    extensions: typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions) ? { ...extensions } : extensions,
    query: typeof query === 'function' ? (request, signal) => query.call(provider, request, signal) : query,
  };
}

/** A JSON copy: answers are LSP data (strings, numbers, ranges), so nothing else survives. */
function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** An error as the caller sees it: an LspError with code, message and JSON details, no cause. */
function publicError(error: unknown): Error {
  if (!isLspError(error)) return new Error(errorMessage(error));
  let details: Record<string, unknown>;
  try {
    details = plain(error.details ?? {});
  } catch {
    details = {};
  }
  return new LspError(error.code, error.message, details);
}
