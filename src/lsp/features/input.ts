/**
 * Input rules of `dsh_symbols`, `dsh_diagnostics` and `dsh_call_hierarchy` (plain Node): the
 * bounds the tools enforce and package.json's input schemas declare (a unit test keeps the two in
 * agreement). Every check throws an `LspError` `invalid_request` whose message says what is valid.
 */
import { quoteInput } from '../../common/quoteInput';
import { integerProblem } from '../../common/integerInput';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../shapeLocations';
import { LspError } from '../types';
import { symbolProblem } from '../symbolAnchor';
import { DEFAULT_CALL_DEPTH, MAX_CALL_DEPTH } from './callHierarchy';
import { isSeverity, isSymbolKindName, SEVERITIES, Severity, SYMBOL_KINDS, SymbolKindName } from './types';

/** Bounds of a workspace-symbol query, in characters (code points) after trimming. */
export const QUERY_MIN_CHARS = 1;
export const QUERY_MAX_CHARS = 200;

/** The input properties each tool accepts (package.json `inputSchema.properties` keys). */
export const TOOL_INPUT_KEYS = Object.freeze({
  dsh_symbols: ['filePath', 'kinds', 'limit', 'offset', 'query'],
  dsh_diagnostics: ['filePath', 'limit', 'offset', 'severity'],
  dsh_call_hierarchy: ['column', 'depth', 'direction', 'filePath', 'line', 'symbol'],
} as const);

/** Input of `dsh_symbols` after validation. */
export interface SymbolsInput {
  readonly query?: string;
  readonly filePath?: string;
  readonly kinds?: readonly SymbolKindName[];
  readonly offset: number;
  readonly limit: number;
}

/** Input of `dsh_diagnostics` after validation. */
export interface DiagnosticsInput {
  readonly filePath?: string;
  readonly severity?: Severity;
  readonly offset: number;
  readonly limit: number;
}

/** Input of `dsh_call_hierarchy` after validation. */
export interface CallHierarchyInput {
  readonly filePath: string;
  readonly line: number;
  readonly column: number;
  readonly symbol?: string;
  readonly direction: 'incoming' | 'outgoing';
  readonly depth: number;
}

const bad = (message: string) => new LspError('invalid_request', message);

function unknownKeys(i: Record<string, unknown>, tool: keyof typeof TOOL_INPUT_KEYS): void {
  const allowed = TOOL_INPUT_KEYS[tool] as readonly string[];
  const extra = Object.keys(i).filter((k) => !allowed.includes(k) && i[k] !== undefined);
  if (extra.length > 0) throw bad(`${tool} does not take ${extra.map((k) => quoteInput(k)).join(', ')}; its inputs are ${allowed.join(', ')}`);
}

function int(v: unknown, name: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  const problem = integerProblem(v, name, min, max);
  if (problem) throw bad(problem);
  return v as number;
}

function filePath(v: unknown, required: boolean): string | undefined {
  if (v === undefined || v === null) {
    if (required) throw bad('filePath is required: a workspace-relative path like "src/a.ts" or an absolute path');
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '') throw bad('filePath must be a workspace-relative path like "src/a.ts" or an absolute path');
  return v;
}

/** Validate `dsh_symbols` input: exactly one of `query` (1..200 characters) and `filePath`. */
export function validateSymbolsInput(input: unknown): SymbolsInput {
  const i = (input ?? {}) as Record<string, unknown>;
  unknownKeys(i, 'dsh_symbols');
  const file = filePath(i.filePath, false);
  let query: string | undefined;
  if (i.query !== undefined && i.query !== null) {
    if (typeof i.query !== 'string') throw bad(`query must be text: a symbol name or part of one (got ${quoteInput(i.query)})`);
    query = i.query.trim();
    const n = Array.from(query).length;
    if (n < QUERY_MIN_CHARS) throw bad(`query is empty: give ${QUERY_MIN_CHARS}..${QUERY_MAX_CHARS} characters of a symbol name (or pass filePath alone for a file's outline)`);
    if (n > QUERY_MAX_CHARS) throw bad(`query is too long (${n} characters): give ${QUERY_MIN_CHARS}..${QUERY_MAX_CHARS} characters of a symbol name`);
  }
  if (query === undefined && file === undefined) throw bad('pass query (a symbol name, for workspace symbols) or filePath (for that file\'s outline)');
  if (query !== undefined && file !== undefined) throw bad('pass either query (workspace symbols) or filePath (a file\'s outline), not both');
  let kinds: SymbolKindName[] | undefined;
  if (i.kinds !== undefined && i.kinds !== null) {
    if (!Array.isArray(i.kinds) || i.kinds.length === 0) throw bad(`kinds must be a non-empty list of symbol kinds: ${SYMBOL_KINDS.join(', ')}`);
    const wrong = i.kinds.filter((k) => !isSymbolKindName(k));
    if (wrong.length > 0) throw bad(`unknown symbol kind${wrong.length > 1 ? 's' : ''} ${wrong.map((w) => quoteInput(w)).join(', ')}; valid: ${SYMBOL_KINDS.join(', ')}`);
    kinds = i.kinds as SymbolKindName[];
  }
  return {
    ...(query !== undefined ? { query } : {}),
    ...(file !== undefined ? { filePath: file } : {}),
    ...(kinds ? { kinds } : {}),
    offset: int(i.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0),
    limit: int(i.limit, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
  };
}

/** Validate `dsh_diagnostics` input. */
export function validateDiagnosticsInput(input: unknown): DiagnosticsInput {
  const i = (input ?? {}) as Record<string, unknown>;
  unknownKeys(i, 'dsh_diagnostics');
  const file = filePath(i.filePath, false);
  if (i.severity !== undefined && i.severity !== null && !isSeverity(i.severity)) throw bad(`severity must be one of ${SEVERITIES.join(', ')} (the least severe to include), got ${quoteInput(i.severity)}`);
  return {
    ...(file !== undefined ? { filePath: file } : {}),
    ...(isSeverity(i.severity) ? { severity: i.severity } : {}),
    offset: int(i.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0),
    limit: int(i.limit, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
  };
}

/** Validate `dsh_call_hierarchy` input. */
export function validateCallHierarchyInput(input: unknown): CallHierarchyInput {
  const i = (input ?? {}) as Record<string, unknown>;
  unknownKeys(i, 'dsh_call_hierarchy');
  const file = filePath(i.filePath, true)!;
  for (const k of ['line', 'column'] as const) {
    if (typeof i[k] !== 'number' || !Number.isInteger(i[k]) || i[k] < 1) throw bad(`${k} must be a 1-based integer (got ${quoteInput(i[k])})`);
  }
  if (i.direction !== 'incoming' && i.direction !== 'outgoing') throw bad(`direction must be "incoming" (who calls it) or "outgoing" (what it calls), got ${quoteInput(i.direction)}`);
  const symbolError = i.symbol === undefined || i.symbol === null ? undefined : symbolProblem(i.symbol);
  if (symbolError) throw bad(symbolError);
  return {
    filePath: file,
    line: i.line as number,
    column: i.column as number,
    ...(typeof i.symbol === 'string' ? { symbol: i.symbol } : {}),
    direction: i.direction,
    depth: int(i.depth, 'depth', 1, MAX_CALL_DEPTH, DEFAULT_CALL_DEPTH),
  };
}
