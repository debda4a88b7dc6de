/**
 * Which source answers symbols, diagnostics and call hierarchy for a file (plain Node, no `vscode`
 * import). Selection is by file extension through the navigation seam's own routing: a file goes
 * to the feature provider registered under the id of the navigation provider that serves its
 * extension (`LspService.providerFor`), so one rule decides for `dsh_lsp` and for these tools.
 */
import { Disposable, LspError } from '../types';
import { extensionOfUri } from '../uri';
import type { CallHierarchyProvider, DiagnosticProvider, SymbolProvider } from './types';

/** The three features beside the seam, by the name the tools and messages use. */
export interface FeatureProviders {
  symbols: SymbolProvider;
  diagnostics: DiagnosticProvider;
  callHierarchy: CallHierarchyProvider;
}

/** A feature's name (`'symbols'`, `'diagnostics'`, `'callHierarchy'`). */
export type Feature = keyof FeatureProviders;

const FEATURE_TEXT: Record<Feature, string> = { symbols: 'symbols', diagnostics: 'diagnostics', callHierarchy: 'call hierarchy' };

/** The navigation routing the registry follows (an `LspService` fits). */
export interface Routing {
  providerFor(uri: string): { providerId: string; extension: string; languageId: string } | undefined;
  servedExtensions(): string[];
}

/**
 * Feature providers per source. Each source registers the features it offers under its navigation
 * provider's id; a feature a source lacks is `unsupported` for its files, named in the error.
 */
export class FeatureRegistry {
  private readonly providers: { [F in Feature]: Map<string, FeatureProviders[F]> } = {
    symbols: new Map(),
    diagnostics: new Map(),
    callHierarchy: new Map(),
  };
  /** Why a source lacks a feature, when it says so (e.g. `md-links` has no call hierarchy). */
  private readonly reasons = new Map<string, string>();

  constructor(private readonly routing: Routing) {}

  /**
   * Register `provider` for `feature` under `provider.id` (replacing an earlier one with that id).
   * @returns a Disposable that removes exactly this registration.
   */
  register<F extends Feature>(feature: F, provider: FeatureProviders[F]): Disposable {
    const map = this.providers[feature] as Map<string, FeatureProviders[F]>;
    map.set(provider.id, provider);
    return { dispose: () => void (map.get(provider.id) === provider && map.delete(provider.id)) };
  }

  /** Record why source `id` has no `feature` (shown in the `unsupported` error). */
  explainMissing(id: string, feature: Feature, reason: string): Disposable {
    const key = `${id}\u0000${feature}`;
    this.reasons.set(key, reason);
    return { dispose: () => void (this.reasons.get(key) === reason && this.reasons.delete(key)) };
  }

  /**
   * The provider of `feature` for the document `uri`, with the languageId the routing derives.
   * @throws LspError `no_provider` (no source serves the extension; lists the served ones),
   *   `unsupported` (the serving source does not offer `feature`; names it).
   */
  forUri<F extends Feature>(feature: F, uri: string): { provider: FeatureProviders[F]; languageId: string; providerId: string } {
    const route = this.routing.providerFor(uri);
    if (!route) {
      const ext = extensionOfUri(uri);
      const served = this.routing.servedExtensions();
      throw new LspError(
        'no_provider',
        `${ext ? `no provider for ${ext} files` : 'the file has no extension, so no provider serves it'}; extensions served: ${served.join(', ') || '(none)'}`,
        {
          extension: ext ?? null,
          servedExtensions: served,
        },
      );
    }
    const provider = (this.providers[feature] as Map<string, FeatureProviders[F]>).get(route.providerId);
    if (!provider) {
      const why = this.reasons.get(`${route.providerId}\u0000${feature}`);
      throw new LspError(
        'unsupported',
        why ?? `${FEATURE_TEXT[feature]} is not supported by '${route.providerId}', the provider serving ${route.extension} files`,
        {
          providerId: route.providerId,
          feature,
        },
      );
    }
    return { provider, languageId: route.languageId, providerId: route.providerId };
  }

  /** Every provider of `feature`, in registration order (for workspace-wide questions). */
  all<F extends Feature>(feature: F): FeatureProviders[F][] {
    return [...(this.providers[feature] as Map<string, FeatureProviders[F]>).values()];
  }

  /**
   * True when an answer about `uri` from source `providerId` belongs in a workspace-wide result:
   * the file is served by that source, or by a source without `feature` (nobody else answers it).
   * Drops the same file's answer coming twice (VS Code's markdown symbols next to `md-links`').
   */
  owns(feature: Feature, providerId: string, uri: string): boolean {
    let route: { providerId: string } | undefined;
    try {
      route = this.routing.providerFor(uri);
    } catch {
      return true;
    }
    if (!route || route.providerId === providerId) return true;
    return !this.providers[feature].has(route.providerId);
  }
}
