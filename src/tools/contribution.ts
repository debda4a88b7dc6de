/**
 * What a tool declaration (./declaration.ts) looks like to the outside: its input as JSON Schema
 * (package.json `inputSchema`, MCP `inputSchema`) and its package.json
 * `contributes.languageModelTools` entry. Plain Node, no `vscode` import.
 */
import { z } from 'zod';
import { toolReferenceName, type ToolDeclaration } from './declaration';

/** A JSON Schema as this module makes it (the keywords the declarations use). */
export interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  /** Alternatives: a value is valid when it is valid for one of them. */
  anyOf?: JsonSchema[];
}

/** A package.json `contributes.languageModelTools` entry. */
export interface LanguageModelToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  modelDescription: string;
  userDescription: string;
  inputSchema: JsonSchema;
  canBeReferencedInPrompt: true;
  tags: string[];
}

const schemas = new WeakMap<ToolDeclaration, JsonSchema>();

/**
 * The input schema of `declaration` as JSON Schema (draft 2020-12 keywords, no `$schema`): what
 * package.json and MCP `tools/list` show. Bounds zod adds on its own (an integer's
 * ±Number.MAX_SAFE_INTEGER) are left out: they say nothing a model needs. Made once per
 * declaration; the result is frozen.
 */
export function inputJsonSchema(declaration: ToolDeclaration): JsonSchema {
  let schema = schemas.get(declaration);
  if (!schema) {
    const made = z.toJSONSchema(declaration.input, { io: 'input', unrepresentable: 'throw' }) as JsonSchema & { $schema?: string };
    delete made.$schema;
    schema = deepFreeze(withoutSafeIntegerBounds(made));
    schemas.set(declaration, schema);
  }
  return schema;
}

function withoutSafeIntegerBounds(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.items) out.items = withoutSafeIntegerBounds(out.items);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, withoutSafeIntegerBounds(v)]));
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The package.json `contributes.languageModelTools` entry of `declaration`. */
export function languageModelToolContribution(declaration: ToolDeclaration): LanguageModelToolContribution {
  return {
    name: declaration.name,
    displayName: declaration.displayName,
    toolReferenceName: toolReferenceName(declaration.name),
    modelDescription: declaration.modelDescription,
    userDescription: declaration.userDescription,
    inputSchema: inputJsonSchema(declaration),
    canBeReferencedInPrompt: true,
    tags: [...declaration.tags],
  };
}
