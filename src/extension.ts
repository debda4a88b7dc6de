import * as vscode from 'vscode';

/** Composition root: builds the services and registers providers, tools and commands. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
