/**
 * Shaping a provider's raw answer into the seam's result, shared by every provider that asks a
 * language server (VS Code's providers, configured stdio servers). Plain Node.
 */
import { LspRequest, LspResult, NavLocation } from './types';
import { isRange, plainRange } from './rangeLike';

/** Rewrites a URI to its real path; each provider formats URIs its own way. */
export type RealUri = (uri: string) => Promise<string>;

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
export async function shapeAnswer(request: LspRequest, answer: RawAnswer, realUri: RealUri): Promise<LspResult> {
  if (request.operation === 'hover') return { kind: 'hover', contents: answer.hover ?? null };
  const cache = new Map<string, Promise<string>>(); // one answer names few files, many times
  const real = (uri: string) => cache.get(uri) ?? cache.set(uri, realUri(uri)).get(uri)!;
  const rebuild = (ls: readonly NavLocation[]) => Promise.all(ls.map(async (l) => ({ ...l, uri: await real(l.uri) })));
  let locations = await rebuild(answer.locations ?? []);
  if (request.operation === 'findReferences') {
    const defs = await rebuild(answer.definitions ?? []);
    const marked = locations.map((l) => (defs.some((d) => sameStart(d, l)) ? { ...l, isDeclaration: true } : l));
    const missing = defs.filter((d) => !locations.some((l) => sameStart(d, l))).map((d) => ({ ...d, isDeclaration: true }));
    locations = [...missing, ...marked];
  }
  return { kind: 'locations', locations: dedupe(locations), resolvedWorkspaceUri: await real(request.workspaceUri) };
}

/** A URI as providers hand it over: an LSP string, or an object whose `toString()` is the URI (`vscode.Uri`). */
export function uriText(u: unknown): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a Uri object's own toString() is its URI text
  return typeof u === 'string' ? u : u && typeof u === 'object' ? String(u) : undefined;
}

/**
 * A provider's definition/implementation/references answer -> seam locations. Takes what LSP and
 * VS Code answer alike: `Location | Location[] | LocationLink[] | null | undefined`; a URI is a
 * string (LSP) or an object whose `toString()` is the URI (`vscode.Uri`). A `LocationLink` reports
 * its `targetSelectionRange` (the name), else `targetRange` (LSP 3.17 §LocationLink); items of
 * another shape are skipped.
 */
export function toNavLocations(raw: unknown): NavLocation[] {
  const items = raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: NavLocation[] = [];
  for (const item of items) {
    const o = item as {
      uri?: unknown;
      range?: unknown;
      targetUri?: unknown;
      targetRange?: unknown;
      targetSelectionRange?: unknown;
      originSelectionRange?: unknown;
    } | null;
    if (!o || typeof o !== 'object') continue;
    const targetUri = uriText(o.targetUri);
    const uri = uriText(o.uri);
    if (targetUri !== undefined) {
      const range = isRange(o.targetSelectionRange) ? o.targetSelectionRange : isRange(o.targetRange) ? o.targetRange : undefined;
      if (!range) continue;
      out.push({
        uri: targetUri,
        range: plainRange(range),
        ...(isRange(o.originSelectionRange) ? { originRange: plainRange(o.originSelectionRange) } : {}),
      });
    } else if (uri !== undefined && isRange(o.range)) {
      out.push({ uri, range: plainRange(o.range) });
    }
  }
  return out;
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
