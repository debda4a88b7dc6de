/**
 * Shaping a provider's raw answer into the seam's result, shared by every provider that asks a
 * language server (VS Code's providers, configured stdio servers). Plain Node.
 */
import { LspError, LspRequest, LspResult, NavLocation } from './types';

/** Rewrites URIs to their real paths (one answer's cache); each provider formats URIs its own way. */
export interface UriResolver {
  uri(uri: string): Promise<string>;
}

/** A provider's raw answer: locations, the definitions (for references), or hover text. */
export interface RawAnswer {
  readonly locations?: readonly NavLocation[];
  readonly definitions?: readonly NavLocation[];
  readonly hover?: string | null;
}

/**
 * The seam's result for `request`: hover as is; locations with real-path URIs, de-duplicated by
 * range, and for `findReferences` the definitions marked `isDeclaration` (added first when the
 * references lack them: the declaration is always included, design map).
 */
export async function shapeAnswer(request: LspRequest, answer: RawAnswer, real: UriResolver): Promise<LspResult> {
  if (request.operation === 'hover') return { kind: 'hover', contents: answer.hover ?? null };
  const rebuild = (ls: readonly NavLocation[]) => Promise.all(ls.map(async (l) => ({ ...l, uri: await real.uri(l.uri) })));
  let locations = await rebuild(answer.locations ?? []);
  if (request.operation === 'findReferences') {
    const defs = await rebuild(answer.definitions ?? []);
    const marked = locations.map((l) => (defs.some((d) => sameStart(d, l)) ? { ...l, isDeclaration: true } : l));
    const missing = defs.filter((d) => !locations.some((l) => sameStart(d, l))).map((d) => ({ ...d, isDeclaration: true }));
    locations = [...missing, ...marked];
  }
  return { kind: 'locations', locations: dedupe(locations), resolvedWorkspaceUri: await real.uri(request.workspaceUri) };
}

/** Same document and same start position. */
export function sameStart(a: NavLocation, b: NavLocation): boolean {
  return a.uri === b.uri && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
}

/** Drops repeated ranges (several providers may answer alike), keeping `isDeclaration` if any had it. */
export function dedupe(locations: readonly NavLocation[]): NavLocation[] {
  const byKey = new Map<string, NavLocation>();
  for (const l of locations) {
    const k = `${l.uri}#${l.range.start.line}:${l.range.start.character}-${l.range.end.line}:${l.range.end.character}`;
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...l, ...prev, ...(prev.isDeclaration || l.isDeclaration ? { isDeclaration: true } : {}) } : l);
  }
  return [...byKey.values()];
}

/** The `cancelled` error of a query whose AbortSignal fired. */
export function cancelledError(signal: AbortSignal): LspError {
  return new LspError('cancelled', 'navigation query cancelled', { reason: String(signal.reason ?? 'aborted') });
}

/** Waits `ms`, or rejects with `cancelledError` as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
