/**
 * The navigation tools as Language Model Tools: `dsh_lsp` on the seam, and `dsh_symbols`,
 * `dsh_diagnostics` and `dsh_call_hierarchy` on the feature registry beside it.
 */
import * as vscode from 'vscode';
import { CallHierarchyTool, DiagnosticsTool, SymbolsTool } from './featureTools';
import { LspTool } from './lspTool';
import type { NavigationContext } from './navigationContext';

/** What {@link registerNavigationTools} returns: the registrations, and fresh tool instances for another surface. */
export interface NavigationTools extends vscode.Disposable {
  /**
   * Fresh instances of the four navigation tools by name, for another surface (MCP: one set per
   * client connection, so a consent one client was given is never another's).
   */
  create(): Map<string, vscode.LanguageModelTool<object>>;
}

/** Register the four navigation tools with `vscode.lm`; unregistered with the returned Disposable. */
export function registerNavigationTools(nav: NavigationContext): NavigationTools {
  const create = () =>
    new Map<string, vscode.LanguageModelTool<object>>([
      [LspTool.toolName, new LspTool(nav.service)],
      [SymbolsTool.toolName, new SymbolsTool(nav.features)],
      [DiagnosticsTool.toolName, new DiagnosticsTool(nav.features)],
      [CallHierarchyTool.toolName, new CallHierarchyTool(nav.features)],
    ]);
  const registrations = vscode.Disposable.from(...[...create()].map(([name, tool]) => vscode.lm.registerTool(name, tool)));
  return { create, dispose: () => void registrations.dispose() };
}
