/**
 * Gathering a workspace's problems from every diagnostics source (plain Node, no `vscode` import),
 * for `dsh_diagnostics` without `filePath`: each source asked once for the workspace when it
 * answers for the whole workspace (`workspaceScope: 'workspace'`: VS Code, stdio servers), else
 * once per folder (the md-links index), its answers kept where a file is
 * served by that source (see {@link FeatureRegistry.owns}), the freshest-to-stalest freshness
 * kept, and one report per source (its count, freshness and note, or its error instead of failing
 * the call).
 */
import { sourceText } from '../sourceErrors';
import { TimeSlice } from '../timeSlice';
import type { FeatureRegistry } from './registry';
import type { DiagnosticItem, Freshness } from './types';
import { foldersToAsk, joinParts, ownedFiles } from './workspaceSources';

const FRESHNESS_RANK: Record<Freshness, number> = { settled: 0, unknown: 1, pending: 2 };

/** What one source contributed to a workspace-wide answer (its error, if it failed). */
export interface DiagnosticsSourceReport {
  readonly id: string;
  readonly count: number;
  readonly freshness?: Freshness;
  readonly note?: string;
  readonly error?: string;
}

/** The gathered problems: every source's items (in the order the answers arrived), the stalest freshness, a report per source (by id). */
export interface GatheredDiagnostics {
  readonly items: DiagnosticItem[];
  readonly freshness: Freshness;
  readonly sources: DiagnosticsSourceReport[];
}

/**
 * Ask every diagnostics source of `registry` for the workspace's problems: one report per source
 * (its count, its stalest freshness, its distinct notes), the sources' items in arrival order.
 * @param folders the workspace folders (URI strings), at least one.
 * @throws LspError `cancelled` when `signal` aborts (a source's other errors go in its report).
 */
export async function gatherWorkspaceDiagnostics(
  registry: FeatureRegistry,
  folders: readonly string[],
  signal: AbortSignal,
): Promise<GatheredDiagnostics> {
  const parts: Array<{ items: DiagnosticItem[] }> = [];
  const sources: DiagnosticsSourceReport[] = [];
  let freshness: Freshness = 'settled';
  // A workspace may hold hundreds of thousands of problems: the sources' lists are gathered in
  // slices (one budget for all of them), and which source serves a file is asked once per file.
  const slice = new TimeSlice();
  await Promise.all(
    registry.all('diagnostics').map(async (p) => {
      let count = 0;
      let sourceFreshness: Freshness = 'settled';
      const notes: string[] = [];
      const owns = ownedFiles(registry, 'diagnostics', p.id);
      try {
        for (const workspaceUri of foldersToAsk(p.workspaceScope, folders)) {
          const answer = await p.workspaceDiagnostics({ workspaceUri, signal });
          // Each answer keeps the place it arrived at while it is filtered.
          const part: { items: DiagnosticItem[] } = { items: [] };
          parts.push(part);
          for (const d of answer.diagnostics) {
            await slice.pause(signal);
            if (!owns(d.uri)) continue;
            part.items.push(d);
            count++;
          }
          if (FRESHNESS_RANK[answer.freshness] > FRESHNESS_RANK[sourceFreshness]) sourceFreshness = answer.freshness;
          if (answer.note && !notes.includes(answer.note)) notes.push(answer.note);
        }
        if (FRESHNESS_RANK[sourceFreshness] > FRESHNESS_RANK[freshness]) freshness = sourceFreshness;
        sources.push({ id: p.id, count, freshness: sourceFreshness, ...(notes.length > 0 ? { note: sourceText(notes.join('; ')) } : {}) });
      } catch (e) {
        if (signal.aborted) throw e;
        sources.push({ id: p.id, count, error: sourceText(e) });
      }
    }),
  );
  const items = await joinParts(parts, slice, signal);
  sources.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { items, freshness, sources };
}
