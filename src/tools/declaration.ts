/**
 * A tool's one declaration: its name, how VS Code lists it, whether it asks the person first, its
 * description for the model and its input schema (zod). Everything a surface shows or checks is
 * made from it: package.json `contributes.languageModelTools` (./contribution.ts, checked by a
 * unit test), the TypeScript input types (`ToolInput`), the one input validator
 * (./validateInput.ts) every surface runs, MCP `tools/list`, and the "runs without asking" list.
 * Plain Node, no `vscode` import.
 */
import { z } from 'zod';
import { codePointName, firstBadCharacter, isControlCode } from '../terminal/input/input';

/**
 * Whether a call asks the person before it runs: `always` (a side effect: chat shows a
 * confirmation, MCP a dialog), `never` (reads), or only in a case the text names (`when`).
 */
export type AsksFirst = 'always' | 'never' | { readonly when: string };

/** A problem a rule across properties found: the property it names and what is valid. */
export interface RuleProblem {
  /** The property the problem is about (a top-level input name). */
  readonly property: string;
  /** What is valid instead, as a phrase: "give either query or filePath, not both". */
  readonly valid: string;
}

/** The declaration of one tool; see the module comment. */
export interface ToolDeclaration<S extends z.ZodObject = z.ZodObject> {
  /** The tool's name on every surface (`dsh_…`). */
  readonly name: string;
  /** package.json `displayName`. */
  readonly displayName: string;
  /** package.json `tags`. */
  readonly tags: readonly string[];
  readonly asksFirst: AsksFirst;
  /** package.json `userDescription`. */
  readonly userDescription: string;
  /** What the model reads: package.json `modelDescription` and MCP `description`. */
  readonly modelDescription: string;
  /** The input: a strict object (no other property is accepted), each property described. */
  readonly input: S;
  /**
   * Rules across properties a JSON Schema does not state ("either query or filePath"), checked
   * after the schema, in order; the first problem found is the error.
   */
  readonly rules?: readonly ((input: z.output<S>) => RuleProblem | undefined)[];
  /**
   * Names a caller may take for inputs of this tool but are not, each with what to do instead
   * (said after the list of inputs when such a name is refused).
   */
  readonly notInputs?: Readonly<Record<string, string>>;
}

/** The input type of a declared tool, as the validator returns it. */
export type ToolInput<D extends ToolDeclaration> = z.output<D['input']>;

/**
 * The name chat refers to a tool by (package.json `toolReferenceName`, `#dshTerminalSend`): its
 * name in camel case, `dsh_terminal_send` → `dshTerminalSend`.
 */
export function toolReferenceName(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Declares a tool (an identity that keeps the schema's type). */
export function declareTool<S extends z.ZodObject>(declaration: ToolDeclaration<S>): ToolDeclaration<S> {
  return Object.freeze(declaration);
}

/**
 * What characters a text input may hold. `multiline`: printable text, newlines and tabs (a
 * command, text to type, a pattern); `line`: printable text on one line (ids, names, paths).
 * Both refuse control characters (C0 but newline and tab, DEL, C1), bidirectional controls and
 * unpaired surrogates, as src/terminal/input/input.ts `firstBadCharacter` judges them.
 */
export type TextKind = 'multiline' | 'line';

/** What a text of `kind` may hold, as an error says it. */
export function textKindText(kind: TextKind): string {
  return kind === 'multiline'
    ? 'printable text: newlines and tabs allowed; no control characters, bidirectional controls or unpaired surrogates'
    : 'printable text on one line: no line breaks, tabs, control characters, bidirectional controls or unpaired surrogates';
}

/**
 * The kind of each schema made by {@link text}, by its definition object, which the copies
 * `.describe()` makes share.
 */
const textKinds = new WeakMap<object, TextKind>();

/**
 * A string input of `kind` between `min` and `max` UTF-16 code units. Its JSON Schema is
 * `{type: "string", minLength, maxLength}`; the character rule is checked by the validator, which
 * names the first refused character (`U+0001 at character 3, a control character (Ctrl-A)`) and,
 * for a control character (a key's code), adds `keysHint`: how to press that key instead.
 */
export function text(kind: TextKind, max: number, min = 0, keysHint?: string) {
  const base = min > 0 ? z.string().min(min).max(max) : z.string().max(max);
  const schema = base.superRefine((value, ctx) => {
    if (value.length > max) return; // refused for its length already; not scanned
    const bad = firstBadCharacter(value, kind === 'multiline');
    if (!bad) return;
    const position = [...value.slice(0, bad.index)].length + 1;
    const hint = keysHint && isControlCode(bad.codePoint) ? `. ${keysHint}` : '';
    ctx.addIssue({
      code: 'custom',
      input: value,
      message: `${codePointName(bad.codePoint)} at character ${position} is ${bad.what}${hint}`,
      params: { textKind: kind },
    });
  });
  textKinds.set(schema.def, kind);
  return schema;
}

/** The hint of each schema given one by {@link hinted}, by its definition object (shared by `.describe()` copies). */
const hints = new WeakMap<object, string>();

/**
 * `schema` with `hint`, what the validator says after what is valid when a value is refused
 * (`lines are 1-based: …`): the way round the rule, or what the schema cannot check.
 */
export function hinted<T extends z.ZodType>(schema: T, hint: string): T {
  hints.set(schema.def, hint);
  return schema;
}

/** The schema inside `property` (through `.optional()`), or its list's item schema when `item`; undefined when there is no such item. */
function innerSchema(property: z.ZodType, item: boolean): z.ZodType | undefined {
  let at: z.ZodType = property;
  for (;;) {
    const def = at.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
    if (def.type === 'optional' && def.innerType) at = def.innerType;
    else if (item && def.type === 'array' && def.element) {
      at = def.element;
      item = false;
    } else break;
  }
  return item ? undefined : at;
}

/**
 * The text kind of a property's schema made by {@link text} (through `.optional()`), or of its
 * list's items when `item`; undefined for any other schema.
 */
export function textKindOf(property: z.ZodType, item = false): TextKind | undefined {
  const at = innerSchema(property, item);
  return at && textKinds.get(at.def);
}

/** The hint {@link hinted} gave a property's schema (through `.optional()`), or its list's items' when `item`. */
export function hintOf(property: z.ZodType, item = false): string | undefined {
  const at = innerSchema(property, item);
  return at && hints.get(at.def);
}
