/**
 * Symbols, diagnostics and call hierarchy from a configured stdio language server (plain Node, no
 * `vscode` import), through its {@link StdioLspProvider} (same process, same readiness rules):
 * `workspace/symbol`, `textDocument/documentSymbol`, `textDocument/prepareCallHierarchy`,
 * `callHierarchy/incomingCalls` / `outgoingCalls`, and diagnostics by `textDocument/diagnostic`
 * (pull, LSP 3.17) when the server announces `diagnosticProvider`, else from its
 * `textDocument/publishDiagnostics` (push). A method the server does not announce is an
 * `unsupported` error naming the server and the method. Answers are LSP-shaped (kinds and
 * severities counted from 1) and converted by `../features/convert.ts`.
 */
import { nestByRange, toCallEdges, toCallItem, toDiagnosticItems, toSymbolItems, toWorkspaceDiagnosticItems } from '../features/convert';
import type {
  CallEdge,
  CallHierarchyProvider,
  CallItem,
  DiagnosticProvider,
  DiagnosticsAnswer,
  FeatureContext,
  SymbolItem,
  SymbolProvider,
} from '../features/types';
import type { Position } from '../types';
import { TimeSlice } from '../timeSlice';
import { extensionOfUri, parseUri } from '../uri';
import type { StdioLspProvider } from './provider';

const emptyList = (r: unknown) => !Array.isArray(r) || r.length === 0;

/** The three features of one configured server (id: the server's id, as on the seam). */
export class StdioFeatures implements SymbolProvider, DiagnosticProvider, CallHierarchyProvider {
  readonly id: string;
  /** The server has one root and answers `workspace/symbol` and `workspace/diagnostic` (or what it published) for all of it: asked once. */
  readonly workspaceScope = 'workspace';

  constructor(private readonly server: StdioLspProvider) {
    this.id = server.id;
  }

  /** `workspace/symbol` (`SymbolInformation[]` or `WorkspaceSymbol[]`). */
  async workspaceSymbols(query: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const r = await this.server.featureRequest<unknown>(
      { method: 'workspace/symbol', capability: 'workspaceSymbolProvider', params: { query }, isEmpty: emptyList },
      ctx.signal,
    );
    return toSymbolItems(r, 1, undefined, undefined, ctx.signal);
  }

  /** `textDocument/documentSymbol` (`DocumentSymbol[]` tree, or `SymbolInformation[]` nested by range). */
  async documentSymbols(uri: string, languageId: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const r = await this.server.featureRequest<unknown>(
      {
        method: 'textDocument/documentSymbol',
        capability: 'documentSymbolProvider',
        params: { textDocument: { uri } },
        document: { uri, languageId },
        isEmpty: emptyList,
      },
      ctx.signal,
    );
    const slice = new TimeSlice();
    return nestByRange(await toSymbolItems(r, 1, uri, slice, ctx.signal), slice, ctx.signal);
  }

  /**
   * A document's diagnostics: pulled (`textDocument/diagnostic`, `settled` once the server is
   * ready) or, for servers that only push, the publication after opening the document (see
   * {@link StdioLspProvider.pushedDiagnostics}).
   */
  async documentDiagnostics(uri: string, languageId: string, ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    if (await this.server.supports('diagnosticProvider', ctx.signal)) {
      const r = await this.server.featureRequest<{ kind?: string; items?: unknown[] } | null>(
        {
          method: 'textDocument/diagnostic',
          capability: 'diagnosticProvider',
          params: { textDocument: { uri } },
          document: { uri, languageId },
          isEmpty: () => false,
        },
        ctx.signal,
      );
      return { diagnostics: await toDiagnosticItems(r?.items ?? [], uri, 1, undefined, ctx.signal), freshness: 'settled' };
    }
    const pushed = await this.server.pushedDiagnostics(uri, languageId, ctx.signal);
    const diagnostics = await toDiagnosticItems(pushed.diagnostics, uri, 1, undefined, ctx.signal);
    if (pushed.freshness === 'settled') return { diagnostics, freshness: 'settled' };
    return {
      diagnostics,
      freshness: pushed.freshness,
      note:
        pushed.freshness === 'pending'
          ? `language server '${this.id}' was still publishing diagnostics for this file; the list may be incomplete. Ask again.`
          : `language server '${this.id}' published no diagnostics for this file in time: it may not check this file, or it is still loading; this is not "no problems".`,
    };
  }

  /**
   * Workspace diagnostics: `workspace/diagnostic` when the server announces workspace pull
   * diagnostics, else the documents it has published diagnostics for since it started.
   */
  async workspaceDiagnostics(ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    if (this.server.state !== 'running') {
      return {
        diagnostics: [],
        freshness: 'settled',
        note: `language server '${this.id}' is not running (it starts on the first request for one of its files), so it has reported nothing yet`,
      };
    }
    const provider = (await this.server.supports('diagnosticProvider', ctx.signal)) ? await this.workspacePull(ctx) : undefined;
    if (provider) return provider;
    const diagnostics = await toWorkspaceDiagnosticItems(
      this.server.publishedDiagnostics().map((p) => [p.uri, p.diagnostics] as const),
      1,
      undefined,
      ctx.signal,
    );
    return {
      diagnostics,
      freshness: 'settled',
      note: `language server '${this.id}' reports on the files opened to it: this holds what it published since it started; ask for a file by filePath to have it checked`,
    };
  }

  private async workspacePull(ctx: FeatureContext): Promise<DiagnosticsAnswer | undefined> {
    let r: { items?: Array<{ uri?: string; items?: unknown[] }> } | null;
    try {
      r = await this.server.featureRequest<{ items?: Array<{ uri?: string; items?: unknown[] }> } | null>(
        { method: 'workspace/diagnostic', capability: 'diagnosticProvider', params: { previousResultIds: [] }, isEmpty: () => false },
        ctx.signal,
      );
    } catch {
      return undefined; // servers that pull per document only answer workspace/diagnostic with an error
    }
    const reports = (r?.items ?? [])
      .filter((report) => typeof report.uri === 'string')
      .map((report) => [report.uri, report.items ?? []] as const);
    return { diagnostics: await toWorkspaceDiagnosticItems(reports, 1, undefined, ctx.signal), freshness: 'settled' };
  }

  /** `textDocument/prepareCallHierarchy` at an LSP position. */
  async prepare(uri: string, languageId: string, position: Position, ctx: FeatureContext): Promise<CallItem[]> {
    const r = await this.server.featureRequest<unknown>(
      {
        method: 'textDocument/prepareCallHierarchy',
        capability: 'callHierarchyProvider',
        params: { textDocument: { uri }, position },
        document: { uri, languageId },
        isEmpty: emptyList,
      },
      ctx.signal,
    );
    return (Array.isArray(r) ? r : []).map((x) => toCallItem(x, 1)).filter((x): x is CallItem => x !== undefined);
  }

  /** `callHierarchy/incomingCalls` (the item's document open on the server meanwhile). */
  incoming(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    return this.calls('incoming', item, ctx);
  }

  /** `callHierarchy/outgoingCalls` (the item's document open on the server meanwhile). */
  outgoing(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    return this.calls('outgoing', item, ctx);
  }

  private async calls(direction: 'incoming' | 'outgoing', item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    const ext = parseUri(item.uri).scheme === 'file' ? extensionOfUri(item.uri) : undefined;
    const languageId = ext !== undefined ? this.server.extensions[ext] : undefined;
    const r = await this.server.featureRequest<unknown>(
      {
        method: direction === 'incoming' ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls',
        capability: 'callHierarchyProvider',
        params: { item: item.data },
        ...(languageId !== undefined ? { document: { uri: item.uri, languageId } } : {}),
        isEmpty: () => false,
      },
      ctx.signal,
    );
    return toCallEdges(r, direction, item.uri, 1, undefined, ctx.signal);
  }
}
