// The extension's package.json as the tests read it, to check that code and manifest agree.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A JSON schema as package.json writes one for a tool input or a setting (the parts tests read). */
export interface ManifestSchema {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: string[];
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  minLength?: number;
  scope?: string;
  items?: ManifestSchema;
  properties?: Record<string, ManifestSchema>;
  required?: string[];
}

/** A Language Model Tool as `contributes.languageModelTools` declares it. */
export interface ManifestTool {
  name: string;
  tags?: string[];
  modelDescription: string;
  inputSchema: ManifestSchema & { properties: Record<string, ManifestSchema> };
}

/** The fields of package.json the tests compare with the code. */
export interface PackageJson {
  name: string;
  publisher: string;
  dependencies: Record<string, string>;
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    languageModelTools: ManifestTool[];
    commands: { command: string }[];
    mcpServerDefinitionProviders: { id: string }[];
    configuration: { properties: Record<string, ManifestSchema | undefined> };
  };
}

/** Reads the repository's package.json (two folders above this file). */
export function packageJson(): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as PackageJson;
}
