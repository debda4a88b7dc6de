/**
 * What every navigation registrar of the extension gets from the composition root
 * (`src/extension.ts`): the seam's service, the feature registry beside it, and the log. Each
 * registrar is a function `(nav: NavigationContext) => vscode.Disposable` (some return a
 * Disposable that also describes itself or hands out tools).
 */
import type * as vscode from 'vscode';
import type { FeatureRegistry } from '../../lsp/features/registry';
import type { LspService } from '../../lsp/service';

/** The navigation seam as the VS Code layer's registrars see it. */
export interface NavigationContext {
  /** The navigation seam: providers for `dsh_lsp`, the palette commands and other extensions. */
  readonly service: LspService;
  /** Symbols, diagnostics and call hierarchy beside the seam, routed like `dsh_lsp`. */
  readonly features: FeatureRegistry;
  /** The extension's log channel. */
  readonly log: vscode.LogOutputChannel;
}
