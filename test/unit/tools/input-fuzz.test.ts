/**
 * Invalid inputs made from each tool's declared schema (src/tools/declarations), table-driven:
 * wrong types for each property, out-of-range numbers, strings over their length (and of 1 MB),
 * lone surrogates, control characters, bad enum values, lists too short, too long or with a wrong
 * item, unknown and misspelt keys, `__proto__` keys, nesting 10 000 deep, null and non-object
 * inputs. Every one gets the one error shape (src/tools/inputError.ts): through the validator the
 * Language Model Tools run (src/vscode/tools/declaredTool.ts calls `validateToolInput`), and
 * through the MCP surface (src/mcp/toolServer.ts over a real socket), where no such call ever
 * reaches a tool. A valid input made the same way passes both.
 */
import * as assert from 'node:assert/strict';
import { inputJsonSchema, JsonSchema } from '../../../src/tools/contribution';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { TOOL_INPUT_MESSAGE, ToolInputError } from '../../../src/tools/inputError';
import { TOOL_DECLARATIONS } from '../../../src/tools/toolDeclarations';
import { validateToolInput } from '../../../src/tools/validateInput';
import { LineClient, lineClient } from '../../helpers/mcpLineClient';
import { declaredToolServer } from '../../helpers/declaredToolServer';

/** One invalid input: what it is, the JSON text of the input (so `__proto__` stays a key), and the property the error must name. */
interface Case {
  readonly what: string;
  readonly json: string;
  /** The error's `property` is this, or starts with it followed by `[` or `.` (a list item, a nested value). */
  readonly property: string;
  readonly didYouMean?: string;
}

const MB = 'x'.repeat(1024 * 1024);

/** Stands for `[[[…1…]]]` nested 10 000 deep, which {@link toJson} writes (JSON.stringify would run out of stack). */
const DEEP = Symbol('nested 10 000 deep');
const DEEP_JSON = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;

/** `value` as JSON, {@link DEEP} written as its nesting. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === DEEP ? '\u0000DEEP' : v)).replaceAll('"\\u0000DEEP"', DEEP_JSON);
}

/** A valid value of `schema`. */
function sample(schema: JsonSchema): unknown {
  if (schema.anyOf) return sample(schema.anyOf[0]!);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => sample(schema.items!));
    default:
      throw new Error(`no sample for ${JSON.stringify(schema)}`);
  }
}

/** Whether `value` has `schema`'s type (not its bounds). */
function hasType(schema: JsonSchema, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((alternative) => hasType(alternative, value));
  if (schema.enum) return schema.enum.includes(value);
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    default:
      return false;
  }
}

/** A valid input of `d`: its required properties, then optional ones added until its rules pass. */
function validInput(d: ToolDeclaration): Record<string, unknown> {
  const schema = inputJsonSchema(d);
  const input: Record<string, unknown> = {};
  for (const name of schema.required ?? []) input[name] = sample(schema.properties![name]!);
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    try {
      validateToolInput(d, input);
      return input;
    } catch {
      if (!(name in input)) input[name] = sample(s);
    }
  }
  validateToolInput(d, input);
  return input;
}

/** Wrong values for a value of `schema` (at `path`, a property or a list item). */
function wrongValues(schema: JsonSchema): { what: string; value: unknown }[] {
  if (schema.anyOf) {
    // Wrong for every alternative: of none of their types, or out of an alternative's bounds and of no other's type.
    const alternatives = schema.anyOf;
    return alternatives
      .flatMap((alternative) => wrongValues(alternative))
      .filter(
        (w) =>
          w.value === DEEP ||
          alternatives.every(
            (a) => !hasType(a, w.value) || (wrongValues(a).some((x) => Object.is(x.value, w.value)) && a.type !== undefined),
          ),
      )
      .filter((w, i, all) => all.findIndex((x) => Object.is(x.value, w.value)) === i);
  }
  const out: { what: string; value: unknown }[] = [];
  for (const value of [null, true, 0.5, 'text', [], {}, 42])
    if (!hasType(schema, value)) out.push({ what: `wrong type ${JSON.stringify(value)}`, value });
  if (schema.enum) out.push({ what: 'a value not in the enum', value: `NOT_${String(schema.enum[0])}` });
  if (schema.type === 'integer') {
    if (schema.minimum !== undefined) out.push({ what: 'below the minimum', value: schema.minimum - 1 });
    out.push({ what: 'above the maximum', value: schema.maximum !== undefined ? schema.maximum + 1 : 2 ** 53 });
    out.push({ what: 'a fraction', value: (schema.minimum ?? 0) + 1.5 });
  }
  if (schema.type === 'string' && !schema.enum) {
    if ((schema.minLength ?? 0) >= 1) out.push({ what: 'empty', value: '' });
    out.push({ what: 'one over its length', value: 'x'.repeat((schema.maxLength ?? 0) + 1) });
    out.push({ what: '1 MB', value: MB });
    out.push({ what: 'a lone surrogate', value: 'a\uD800b' });
    out.push({ what: 'a control character', value: 'a\u0001b' });
    out.push({ what: 'an escape character', value: 'a\u001b[31mb' });
    out.push({ what: 'a bidirectional control', value: 'a\u202Eb' });
  }
  if (schema.type === 'array') {
    if ((schema.minItems ?? 0) >= 1) out.push({ what: 'an empty list', value: [] });
    if (schema.maxItems !== undefined)
      out.push({ what: 'one item too many', value: Array.from({ length: schema.maxItems + 1 }, () => sample(schema.items!)) });
    for (const w of wrongValues(schema.items!)) out.push({ what: `an item: ${w.what}`, value: [w.value] });
  }
  out.push({ what: 'nested 10 000 deep', value: DEEP });
  return out;
}

/** A likely misspelling of `name` that is no other name: its last character dropped, or in other case. */
function misspelt(name: string, names: readonly string[]): string[] {
  const out = [name.length > 3 ? name.slice(0, -1) : `${name}x`, name.toUpperCase()];
  return out.filter((m) => m !== name && !names.includes(m));
}

/** Every invalid input of `d`. */
function cases(d: ToolDeclaration): Case[] {
  const schema = inputJsonSchema(d);
  const base = validInput(d);
  const names = Object.keys(schema.properties ?? {});
  const json = toJson;
  const out: Case[] = [];
  for (const [what, value] of [
    ['null', null],
    ['an array', []],
    ['an array of the valid input', [base]],
    ['a string', 'x'],
    ['a number', 42],
    ['true', true],
    ['1 MB of text', MB],
    ['nested 10 000 deep', DEEP],
  ] as const) {
    out.push({ what: `the input is ${what}`, json: json(value), property: '' });
  }
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    for (const w of wrongValues(s)) out.push({ what: `${name}: ${w.what}`, json: json({ ...base, [name]: w.value }), property: name });
    if ((schema.required ?? []).includes(name)) {
      const { [name]: _, ...rest } = base;
      out.push({ what: `${name}: missing`, json: json(rest), property: name });
    }
    for (const m of misspelt(name, names)) {
      const { [name]: _, ...rest } = base;
      out.push({ what: `${name} misspelt as ${m}`, json: json({ ...rest, [m]: base[name] ?? sample(s) }), property: m, didYouMean: name });
    }
  }
  out.push({ what: 'an unknown key', json: json({ ...base, bogusKey: 1 }), property: 'bogusKey' });
  out.push({
    what: 'an unknown key of 1 MB',
    json: json({ ...base, [MB]: 1 }),
    property: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (1048576 characters)',
  });
  out.push({ what: 'an unknown key nested 10 000 deep', json: json({ ...base, bogusKey: DEEP }), property: 'bogusKey' });
  out.push({
    what: 'a __proto__ key',
    json: `${json(base).slice(0, -1)}${names.length && Object.keys(base).length ? ',' : ''}"__proto__":{"polluted":true}}`,
    property: '__proto__',
  });
  out.push({
    what: 'a __proto__ key inside a value',
    json: json({ ...base, bogusKey: 1 }).replace('"bogusKey":1', '"bogusKey":{"__proto__":{"polluted":true}}'),
    property: 'bogusKey',
  });
  return out;
}

/** Asserts `e` is the one error shape for `d` and case `c`, with a bounded message. */
function assertShape(
  d: ToolDeclaration,
  c: Case,
  message: string,
  fields?: { property: string; didYouMean?: string; tool: string; given: string },
): void {
  const at = `${d.name}: ${c.what}: ${message.slice(0, 300)}`;
  const m = TOOL_INPUT_MESSAGE.exec(message);
  assert.ok(m, `not the error shape: ${at}`);
  assert.equal(m[1], d.name, at);
  assert.ok(message.length < 2000, `the error is ${message.length} characters long: ${at}`);
  if (fields) {
    assert.equal(fields.tool, d.name, at);
    assert.ok(
      fields.property === c.property || fields.property.startsWith(`${c.property}[`) || fields.property.startsWith(`${c.property}.`),
      `property ${fields.property}, expected ${c.property}: ${at}`,
    );
    if (c.didYouMean) assert.equal(fields.didYouMean, c.didYouMean, at);
    assert.ok(fields.given.length <= 200, `given is ${fields.given.length} characters: ${at}`);
  } else if (c.didYouMean) {
    assert.ok(message.endsWith(`Did you mean \`${c.didYouMean}\`?`), at);
  }
}

describe('tool inputs made invalid from each declared schema', function () {
  this.timeout(120_000);
  const all = TOOL_DECLARATIONS.map((d) => ({ d, cases: cases(d) }));

  it(`generates cases for every declared tool (${all.reduce((n, t) => n + t.cases.length, 0)} in all)`, () => {
    for (const { d, cases } of all) assert.ok(cases.length >= 8, d.name);
  });

  describe('through the validator the Language Model Tools run', () => {
    for (const { d, cases } of all) {
      it(`${d.name}: ${cases.length} invalid inputs each get the one error shape; the valid one passes`, () => {
        assert.deepEqual(validateToolInput(d, validInput(d)), validInput(d));
        for (const c of cases) {
          let error: unknown;
          try {
            validateToolInput(d, JSON.parse(c.json));
          } catch (e) {
            error = e;
          }
          assert.ok(error instanceof ToolInputError, `${d.name}: ${c.what}: ${String(error)}`);
          assertShape(d, c, error.message, error.fields);
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
      });
    }
  });

  describe('through the MCP surface (tools/call on a real socket)', () => {
    let client: LineClient;
    const calls: string[] = [];
    before(async () => {
      client = await lineClient(declaredToolServer(calls));
    });
    after(() => client.dispose());
    let id = 0;

    for (const { d, cases } of all) {
      it(`${d.name}: ${cases.length} invalid inputs each get the one error shape and never reach the tool; the valid one does`, async () => {
        calls.length = 0;
        for (const c of cases) {
          const answer = client.next(`the answer to ${d.name}: ${c.what}`);
          client.send(`{"jsonrpc":"2.0","id":${++id},"method":"tools/call","params":{"name":"${d.name}","arguments":${c.json}}}`);
          const a = (await answer) as {
            id: number;
            result?: { isError?: boolean; content: { text: string }[] };
            error?: { code: number; message: string; data?: { property: string; tool: string; given: string } };
          };
          assert.equal(a.id, id, `${d.name}: ${c.what}`);
          if (a.error) {
            // The input as a whole is not an object: Invalid Params, the shape naming `arguments`.
            assert.equal(a.error.code, -32602, `${d.name}: ${c.what}: ${a.error.message}`);
            assert.equal(c.property, '', `${d.name}: ${c.what}: only a non-object input is a protocol error`);
            assertShape(d, { ...c, property: 'arguments' }, a.error.message, a.error.data);
          } else {
            assert.equal(a.result?.isError, true, `${d.name}: ${c.what}: ${JSON.stringify(a).slice(0, 300)}`);
            assertShape(d, c, a.result.content[0]!.text);
          }
        }
        assert.deepEqual(calls, [], 'no invalid input reached the tool');
        const answer = client.next('the answer to the valid input');
        client.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: d.name, arguments: validInput(d) } }));
        assert.deepEqual(((await answer) as { result: unknown }).result, { content: [{ type: 'text', text: 'ran' }] });
        assert.deepEqual(calls, [d.name]);
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
      });
    }
  });
});
