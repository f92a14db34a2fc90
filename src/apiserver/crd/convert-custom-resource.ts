// Conversion between CRD versions with strategy None: the stored fields are
// kept, only apiVersion changes (as kube's nopConverter does). Webhook
// conversion is not supported by this server.
import type { KubeObject } from '../../core/types.ts';

/** `toVersion` is a version ("v2") or a full apiVersion ("example.com/v2"). */
export function convertCustomResource<T extends KubeObject>(obj: T, toVersion: string): T {
  if (toVersion.includes('/')) return { ...obj, apiVersion: toVersion };
  const current = obj.apiVersion ?? '';
  const slash = current.indexOf('/');
  const apiVersion = slash >= 0 ? `${current.slice(0, slash)}/${toVersion}` : toVersion;
  return { ...obj, apiVersion };
}
