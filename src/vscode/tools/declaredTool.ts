/**
 * A tool as every surface calls it: its implementation behind its declaration's input validation
 * (src/tools/validateInput.ts). Language Model Tools (`vscode.lm.registerTool`, and through it
 * the palette commands that call `vscode.lm.invokeTool`) and MCP connections both get their tools
 * this way (./registry.ts), so an input that is not as declared is refused the same on each, with
 * a `ToolInputError`, before the implementation sees it.
 */
import * as vscode from 'vscode';
import type { ToolDeclaration, ToolInput } from '../../tools/declaration';
import { validateToolInput } from '../../tools/validateInput';
import { carryGrant } from './approvalGrant';

/**
 * `impl` behind `declaration`'s validation. `prepareInvocation` of an invalid input returns only
 * an invocation message, never a confirmation (there is nothing to confirm: the call is refused);
 * `invoke` throws the `ToolInputError`. A valid input reaches `impl` as the validator returns it,
 * typed as declared.
 */
export function declaredTool<D extends ToolDeclaration>(
  declaration: D,
  impl: vscode.LanguageModelTool<ToolInput<D>>,
): vscode.LanguageModelTool<object> {
  return {
    prepareInvocation(options, token) {
      let input: ToolInput<D>;
      try {
        input = validateToolInput(declaration, options.input);
      } catch {
        return { invocationMessage: `${declaration.displayName}: refused, the input is not as declared` };
      }
      return impl.prepareInvocation ? impl.prepareInvocation({ ...options, input }, token) : undefined;
    },
    invoke(options, token) {
      // The options are copied: who allowed the call (an MCP client's allowance) goes with them.
      return impl.invoke(carryGrant(options, { ...options, input: validateToolInput(declaration, options.input) }), token);
    },
  };
}
