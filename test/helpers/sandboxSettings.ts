/**
 * The agent-sandbox settings a test starts from: none of VS Code's or DSH Bridge's sandbox
 * settings set (`chat.agent.sandbox.enabled` at its default, off), with `values` over them.
 */
import type { SandboxSettingValues } from '../../src/terminal/sandbox/policy';

export function sandboxSettings(values: Partial<SandboxSettingValues> = {}): SandboxSettingValues {
  return {
    dshMode: undefined,
    vscodeEnabled: 'off',
    vscodeEnabledSource: 'default',
    allowNetwork: undefined,
    allowedDomains: undefined,
    deniedDomains: undefined,
    fileSystem: undefined,
    allowUnsandboxedCommands: undefined,
    ...values,
  };
}
