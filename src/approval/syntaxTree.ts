/**
 * The part of a tree-sitter syntax tree (web-tree-sitter's `Node`) the command-line walk reads,
 * so the walk depends on no parser build (plain Node, no `vscode` import). Indices are offsets in
 * the parsed JavaScript string (UTF-16 code units, as web-tree-sitter reports them for a string
 * input), 0-based, end exclusive.
 */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  /** Whether the parser made this node up to recover from an error (a missing `fi`, `)`). */
  readonly isMissing: boolean;
  readonly children: readonly (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
  fieldNameForChild?(index: number): string | null;
}

/** Parses bash source into the root node of its syntax tree, or returns undefined when the parse was stopped (time bound). */
export type BashParse = (source: string) => SyntaxNode | undefined;

/** The node's children, nulls left out. */
export function childrenOf(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((c): c is SyntaxNode => c !== null);
}
