/**
 * The one error every surface gives for a tool input that is not as declared: which property was
 * wrong, what was given (shortened), and what is valid; a misspelt property name gets a "did you
 * mean". Its message reads
 * `<tool>: <property> <problem> (got <given>); valid: <valid>.[ Did you mean `<name>`?]`, e.g.
 * ``dsh_run: `timeout` is not one of its inputs (got 5000); valid: command, timeoutMs. Did you mean `timeoutMs`?``
 * Plain Node, no `vscode` import.
 */

/** The fields of a {@link ToolInputError} (MCP sends them as the error's `data`). */
export interface ToolInputProblem {
  /** The tool the input was for. */
  readonly tool: string;
  /** The property that was wrong as a path (`timeoutMs`, `keys[2]`), or '' for the input as a whole. */
  readonly property: string;
  /** What is wrong, as a verb phrase: "is not one of its inputs", "is required", "is not valid: …". */
  readonly problem: string;
  /** What was given, as JSON cut when long (src/common/quoteInput.ts); `nothing` when absent. */
  readonly given: string;
  /** What is valid there, as a phrase: "an integer in 1..2147483647", "sessionId, jobId". */
  readonly valid: string;
  /** The declared property the caller probably meant, for an unknown one. */
  readonly didYouMean?: string;
}

/** A tool input that is not as declared; see the module comment. Its fields are {@link fields}. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
  /** What was wrong, as plain data (a copy of the constructor's, frozen). */
  readonly fields: Readonly<ToolInputProblem>;

  constructor(p: ToolInputProblem) {
    super(toolInputMessage(p));
    const { didYouMean, ...rest } = p;
    this.fields = Object.freeze({ ...rest, ...(didYouMean !== undefined ? { didYouMean } : {}) });
  }

  /** The fields alone, as plain data (MCP's error `data`). */
  toJSON(): ToolInputProblem {
    return this.fields;
  }
}

/** The message of a {@link ToolInputError} with fields `p`. */
export function toolInputMessage(p: ToolInputProblem): string {
  const where = p.property ? `\`${p.property}\`` : 'the input';
  return `${p.tool}: ${where} ${p.problem} (got ${p.given}); valid: ${p.valid}.${p.didYouMean ? ` Did you mean \`${p.didYouMean}\`?` : ''}`;
}

/**
 * The shape of a {@link ToolInputError}'s message, for tests and callers that only have the text
 * (an MCP `isError` result, an error thrown through `vscode.lm.invokeTool`).
 */
export const TOOL_INPUT_MESSAGE = /^([\w.]+): (`[^`]+`|the input) (.+) \(got (.+)\); valid: (.+)\.( Did you mean `\w+`\?)?$/s;
