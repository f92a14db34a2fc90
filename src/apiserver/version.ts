// What /version reports: the Kubernetes release whose API the embedded server implements.
import { KUBE_VERSION } from './openapi/index.ts';

const [major = '1', minor = '33'] = KUBE_VERSION.replace(/^v/, '').split('.');

export const versionInfo = {
  major,
  minor,
  emulationMajor: major,
  emulationMinor: minor,
  minCompatibilityMajor: major,
  minCompatibilityMinor: String(Number(minor) - 1),
  gitVersion: KUBE_VERSION,
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.24.0',
  compiler: 'gc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
} as const;
