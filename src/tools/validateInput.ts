/**
 * The one validation of a tool's input, run on every surface (Language Model Tools, MCP, the
 * palette commands that call the tools): the input must be exactly as its declaration
 * (./declaration.ts) says: an object, no property it does not declare, every required one, each
 * of its type and within its bounds (integer ranges, string lengths, list sizes, enums, the
 * characters text may hold), then the declaration's rules across properties. On top of the
 * schema, for every tool: no `__proto__` key anywhere, at most {@link MAX_INPUT_DEPTH} levels of
 * nesting and {@link MAX_INPUT_VALUES} values in all, checked before anything else looks inside
 * (without recursion, so a value nested 10 000 deep costs no stack). Any failure is a
 * {@link ToolInputError} (./inputError.ts). Plain Node, no `vscode` import.
 */
import type { z } from 'zod';
import { quoteInput } from '../common/quoteInput';
import { integerRangeText } from '../common/integerInput';
import { textHead } from '../common/textHead';
import { inputJsonSchema, JsonSchema } from './contribution';
import { hintOf, textKindOf, textKindText, TextKind, ToolDeclaration, ToolInput } from './declaration';
import { didYouMean } from './didYouMean';
import { ToolInputError, ToolInputProblem } from './inputError';

/** Deepest nesting of objects and lists an input may have (the input object is level 1); the declared inputs use 2. */
export const MAX_INPUT_DEPTH = 8;

/** Most values (objects, lists, strings, numbers, …) an input may hold; the largest valid one holds a few hundred. */
export const MAX_INPUT_VALUES = 10_000;

type Problem = Omit<ToolInputProblem, 'tool'>;

/**
 * `input` checked against `declaration`; returns it as its declared type (a copy: a caller's later
 * change to its object is not seen).
 * @throws ToolInputError saying which property was wrong, what was given and what is valid.
 */
export function validateToolInput<D extends ToolDeclaration>(declaration: D, input: unknown): ToolInput<D> {
  const checked = check(declaration, input);
  if ('problem' in checked) throw new ToolInputError({ tool: declaration.name, ...checked.problem });
  return checked.data as ToolInput<D>;
}

/** `input` as `declaration` takes it, or the first problem with it. */
function check(declaration: ToolDeclaration, input: unknown): { data: unknown } | { problem: Problem } {
  const schema = inputJsonSchema(declaration);
  const names = Object.keys(schema.properties ?? {});
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      problem: { property: '', problem: 'is not an object', given: quoteInput(input), valid: objectText(declaration.name, schema) },
    };
  }
  const structure = structureProblem(input, names);
  if (structure) return { problem: structure };
  const parsed = declaration.input.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
    return { problem: issueProblem(declaration, schema, input, issue) };
  }
  for (const rule of declaration.rules ?? []) {
    const broken = rule(parsed.data);
    if (broken) {
      return {
        problem: {
          property: broken.property,
          problem: 'is not valid here',
          given: givenText(parsed.data[broken.property]),
          valid: broken.valid,
        },
      };
    }
  }
  return { data: parsed.data };
}

/** What was given, quoted; `nothing` for an absent value. */
function givenText(value: unknown): string {
  return value === undefined ? 'nothing' : quoteInput(value);
}

/** Longest property name an error repeats whole, in UTF-16 code units; a longer one is cut. */
const MAX_NAME_UNITS = 64;

/** `a.b[2]`: a path as the error names it, a name over {@link MAX_NAME_UNITS} cut (`xxxx… (1000000 characters)`). */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    const name = String(key);
    const shown = name.length > MAX_NAME_UNITS ? `${textHead(name, MAX_NAME_UNITS / 2)} (${name.length} characters)` : name;
    out += typeof key === 'number' ? `[${key}]` : out ? `.${shown}` : shown;
  }
  return out;
}

/** What a tool's input as a whole may be. */
function objectText(tool: string, schema: JsonSchema): string {
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return `an empty object {}: ${tool} takes no input`;
  const required = new Set(schema.required ?? []);
  return `an object of ${tool}'s inputs: ${names.map((n) => (required.has(n) ? n : `${n}?`)).join(', ')} (? optional)`;
}

/**
 * The first thing wrong with the input's structure: a `__proto__` key, nesting deeper than
 * {@link MAX_INPUT_DEPTH}, more than {@link MAX_INPUT_VALUES} values. Walks with its own stack.
 */
function structureProblem(input: object, names: readonly string[]): Problem | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: input, path: [] }];
  let values = 1;
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      return {
        property: pathText(path),
        problem: `is nested too deep (the input and its values nest ${MAX_INPUT_DEPTH} levels or more)`,
        given: quoteInput(value),
        valid: `values nested at most ${MAX_INPUT_DEPTH - 1} levels inside the input; the declared inputs nest 1 (a list of strings)`,
      };
    }
    const entries: [PropertyKey, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
    if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, '__proto__')) {
      return {
        property: pathText([...path, '__proto__']),
        problem: 'is never an input name',
        given: quoteInput((value as Record<string, unknown>)['__proto__']),
        valid: path.length === 0 ? names.join(', ') || 'no input' : 'the keys the input declares',
      };
    }
    values += entries.length;
    if (values > MAX_INPUT_VALUES) {
      return {
        property: pathText(path),
        problem: `holds too many values (over ${MAX_INPUT_VALUES} in the whole input)`,
        given: `${entries.length} values here`,
        valid: `an input of at most ${MAX_INPUT_VALUES} values`,
      };
    }
    for (const [key, v] of entries) stack.push({ value: v, path: [...path, key] });
  }
  return undefined;
}

/** The declared schema at `path` (a property, or a list's item), if any. */
function schemaAt(schema: JsonSchema, path: readonly PropertyKey[]): JsonSchema | undefined {
  let at: JsonSchema | undefined = schema;
  for (const key of path) at = typeof key === 'number' ? at?.items : at?.properties?.[String(key)];
  return at;
}

/** The value at `path` in `input`, if any. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** What `schema` takes, in words: "an integer in 1..500", "one of incoming, outgoing". */
export function schemaText(schema: JsonSchema, textKind?: TextKind): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => String(v)).join(', ')}`;
  const range = (min: number | undefined, max: number | undefined) =>
    min !== undefined && max !== undefined
      ? `${min}..${max}`
      : min !== undefined
        ? `at least ${min}`
        : max !== undefined
          ? `at most ${max}`
          : undefined;
  switch (schema.type) {
    case 'integer': {
      return `an integer${schema.minimum !== undefined ? ` ${integerRangeText(schema.minimum, schema.maximum)}` : ''}`;
    }
    case 'boolean':
      return 'true or false';
    case 'string': {
      const r = range(schema.minLength, schema.maxLength);
      return `${textKind ? textKindText(textKind) : 'a string'}${r ? `, ${r} characters (UTF-16 code units)` : ''}`;
    }
    case 'array': {
      const r = range(schema.minItems, schema.maxItems);
      return `a list of ${r ?? 'any number of'} items, each ${schema.items ? schemaText(schema.items) : 'anything'}`;
    }
    default:
      return schema.type ? `a value of type ${schema.type}` : 'a declared value';
  }
}

/** The {@link Problem} a zod issue of the declared schema stands for. */
function issueProblem(declaration: ToolDeclaration, schema: JsonSchema, input: object, issue: z.core.$ZodIssue): Problem {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const path = [...issue.path, key];
    const at = schemaAt(schema, issue.path);
    const names = Object.keys(at?.properties ?? {});
    const guess = didYouMean(key, names);
    return {
      property: pathText(path),
      problem: issue.path.length === 0 ? `is not one of ${declaration.name}'s inputs` : 'is not a declared key',
      given: givenText(valueAt(input, path)),
      valid:
        (names.length > 0 ? names.join(', ') : `nothing: ${declaration.name} takes no input ({})`) +
        (issue.path.length === 0 && Object.hasOwn(declaration.notInputs ?? {}, key) ? `; ${declaration.notInputs![key]}` : ''),
      ...(guess ? { didYouMean: guess } : {}),
    };
  }
  const at = schemaAt(schema, issue.path) ?? {};
  const value = valueAt(input, issue.path);
  const textKind = issue.code === 'custom' ? (issue.params as { textKind?: TextKind } | undefined)?.textKind : undefined;
  const hint = propertyAt(declaration, issue.path, hintOf);
  const valid = schemaText(at, textKind ?? propertyAt(declaration, issue.path, textKindOf)) + (hint ? `; ${hint}` : '');
  if (value === undefined && issue.path.length > 0)
    return { property: pathText(issue.path), problem: 'is required', given: 'nothing', valid };
  const problem = issue.code === 'custom' ? `is not valid: ${issue.message}` : 'is not valid';
  return { property: pathText(issue.path), problem, given: givenText(value), valid };
}

/** What `of` says of the schema at `path` (a top-level property, or an item of a list property): its text kind, its hint. */
function propertyAt<T>(
  declaration: ToolDeclaration,
  path: readonly PropertyKey[],
  of: (property: z.ZodType, item: boolean) => T | undefined,
): T | undefined {
  const top = path[0];
  if (typeof top !== 'string' || path.length > 2) return undefined;
  const property = (declaration.input.shape as Record<string, z.ZodType | undefined>)[top];
  return property && of(property, path.length === 2);
}
