/**
 * VS Code's own language features on the navigation seam: the {@link VsCodeProvider} registered as
 * the seam's fallback, over every extension installed extensions contribute that no other provider
 * serves, rebuilt when extensions are installed or removed.
 */
import * as vscode from 'vscode';
import type { NavigationContext } from './navigationContext';
import { VsCodeProvider, contributedExtensions } from './vscodeProvider';

/** Register the VS Code provider as the fallback of `nav.service`; disposed with the returned Disposable. */
export function registerVsCodeFallback(nav: NavigationContext): vscode.Disposable {
  const { service, log } = nav;
  const fallback = service.registerFallback((served) => {
    const extensions = contributedExtensions(served);
    if (Object.keys(extensions).length === 0) {
      log.warn('navigation: no installed extension contributes languages; only md-links serves dsh_lsp');
      return undefined;
    }
    log.info(`navigation: vscode provider serves ${Object.keys(extensions).length} extensions`);
    return new VsCodeProvider(extensions);
  });
  return vscode.Disposable.from(
    vscode.extensions.onDidChange(() => fallback.refresh()),
    fallback,
  );
}
