// apiextensions.k8s.io/v1 defaulting of a CRD (SetDefaults_CustomResourceDefinition
// and friends): conversion strategy None, names.singular = lowercase kind,
// names.listKind = <Kind>List, webhook service port 443. Returns a copy.
import type { CustomResourceDefinition } from './crd-types.ts';

export function applyCrdDefaults(crd: CustomResourceDefinition): CustomResourceDefinition {
  const out = structuredClone(crd);
  out.spec = out.spec ?? {};
  const spec = out.spec;
  spec.conversion = spec.conversion ?? { strategy: 'None' };
  if (!spec.conversion.strategy) spec.conversion.strategy = 'None';
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service && service.port === undefined) service.port = 443;
  const names = spec.names;
  if (names?.kind) {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  return out;
}
