// `warren version [-o json|yaml]` (and `warren --version`): the version in
// package.json, and the Node.js that runs it.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { str, type CommandInput } from './cli-io.ts';

export interface VersionInfo { warrenVersion: string; nodeVersion: string; platform: string }

export function versionInfo(): VersionInfo {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return { warrenVersion: `v${pkg.version ?? '0.0.0'}`, nodeVersion: process.version, platform: `${process.platform}/${process.arch}` };
}

export function runVersionCommand({ io, values }: CommandInput): Promise<number> {
  const info = versionInfo();
  const output = str(values, 'output');
  if (output === 'json') io.out(`${JSON.stringify(info, null, 2)}\n`);
  else if (output === 'yaml') io.out(stringify(info));
  else if (output === undefined) io.out(`warren ${info.warrenVersion} (node ${info.nodeVersion}, ${info.platform})\n`);
  else throw new Error(`--output must be json or yaml, not "${output}"`);
  return Promise.resolve(0);
}
