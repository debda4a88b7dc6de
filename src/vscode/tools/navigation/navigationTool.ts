/**
 * The base of the navigation tools answered from the feature registry (`dsh_symbols`,
 * `dsh_diagnostics`, `dsh_call_hierarchy`): an invocation message and never a confirmation (they
 * read only inside the workspace), then the tool's JSON answer as the tool result, with the call's
 * cancellation as an AbortSignal for as long as the answer takes.
 */
import * as vscode from 'vscode';
import { abortOnCancel } from '../../cancellation';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import { toolResult } from '../toolResult';

/**
 * Base of the feature tools. Each tool owns its name (`static toolName`, a declared tool), its
 * input type from its declaration (src/tools/declarations/navigation.ts, validated before it is
 * called, ../declaredTool.ts), its invocation message and its answer.
 */
export abstract class NavigationTool<I> implements vscode.LanguageModelTool<I> {
  constructor(protected readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<I>): vscode.PreparedToolInvocation {
    return { invocationMessage: this.invocationMessage(options.input) };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<I>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const { signal, dispose } = abortOnCancel(token);
    try {
      return toolResult(await this.answer(options.input, signal));
    } finally {
      dispose();
    }
  }

  /** What the chat shows while the call runs. */
  protected abstract invocationMessage(input: I): string;

  /**
   * The JSON answer.
   * @throws Error/LspError with a message the model can act on: file not found or outside the
   *   workspace, no provider for the file type, unsupported by the serving source, not ready,
   *   cancelled (`signal`).
   */
  protected abstract answer(input: I, signal: AbortSignal): Promise<object>;
}
