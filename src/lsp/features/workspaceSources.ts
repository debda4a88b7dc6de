/**
 * What the workspace-wide gatherers (workspaceDiagnostics.ts, workspaceSymbols.ts) share about
 * asking every source of a feature (plain Node, no `vscode` import): which folders a source is
 * asked for, which files' answers it keeps, and the answers joined in the order they arrived.
 */
import type { TimeSlice } from '../timeSlice';
import type { Feature, FeatureRegistry } from './registry';

/**
 * The folders a source is asked for: the first alone when it answers for the whole workspace
 * (`workspaceScope: 'workspace'`: VS Code, stdio servers), else every folder (the md-links index).
 * @param folders the workspace folders (URI strings), in their order.
 */
export function foldersToAsk(workspaceScope: 'folder' | 'workspace' | undefined, folders: readonly string[]): readonly string[] {
  return workspaceScope === 'workspace' ? folders.slice(0, 1) : folders;
}

/**
 * Whether an answer of source `providerId` about a file belongs in the workspace-wide result
 * ({@link FeatureRegistry.owns}), asked of the registry once per file (URI string): a source may
 * answer thousands of items in one file.
 */
export function ownedFiles(registry: FeatureRegistry, feature: Feature, providerId: string): (uri: string) => boolean {
  const owned = new Map<string, boolean>();
  return (uri) => {
    let owns = owned.get(uri);
    if (owns === undefined) owned.set(uri, (owns = registry.owns(feature, providerId, uri)));
    return owns;
  };
}

/**
 * Every part's items in one list, the parts in the order given (the order their answers
 * arrived), yielding through `slice` between items.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function joinParts<T>(
  parts: ReadonlyArray<{ readonly items: readonly T[] }>,
  slice: TimeSlice,
  signal: AbortSignal,
): Promise<T[]> {
  const all: T[] = [];
  for (const part of parts) {
    for (const item of part.items) {
      await slice.pause(signal);
      all.push(item);
    }
  }
  return all;
}
