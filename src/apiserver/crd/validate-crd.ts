// Validation of an apiextensions.k8s.io/v1 CustomResourceDefinition, as
// kube-apiserver's ValidateCustomResourceDefinition(Update) does, on the
// defaulted object. Returns causes for an Invalid (422) error; empty means valid.
// Not covered: status validation, CEL rule compilation, API-approval
// annotation for *.k8s.io groups, selectableFields.
import type { StatusCause } from '../../core/types.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionSpec } from './crd-types.ts';
import { applyCrdDefaults } from './crd-defaults.ts';
import { isDns1035Label, isDns1123Subdomain } from './dns-names.ts';
import { forbidden, immutable, index, invalid, notSupported, required } from './field-errors.ts';
import { validateVersion } from './validate-crd-version.ts';

export function validateCrd(input: CustomResourceDefinition, oldInput?: CustomResourceDefinition): StatusCause[] {
  const crd = applyCrdDefaults(input);
  const spec = crd.spec;
  const errs: StatusCause[] = [...validateName(crd), ...validateSpec(spec)];
  if (oldInput) errs.push(...validateUpdate(spec, applyCrdDefaults(oldInput)));
  return errs;
}

function validateName(crd: CustomResourceDefinition): StatusCause[] {
  const name = crd.metadata?.name ?? '';
  if (!name) return [required('metadata.name', 'name or generateName is required')];
  const msgs = isDns1123Subdomain(name);
  if (name !== `${crd.spec.names?.plural ?? ''}.${crd.spec.group ?? ''}`) msgs.push('must be spec.names.plural+"."+spec.group');
  return msgs.map((m) => invalid('metadata.name', name, m));
}

function validateSpec(spec: CustomResourceDefinitionSpec): StatusCause[] {
  const errs: StatusCause[] = [];
  const group = spec.group ?? '';
  const groupErrs = isDns1123Subdomain(group);
  if (!group) errs.push(required('spec.group'));
  else if (groupErrs.length) errs.push(invalid('spec.group', group, groupErrs.join(',')));
  else if (group.split('.').length < 2) errs.push(invalid('spec.group', group, 'should be a domain with at least one dot'));

  if (!spec.scope) errs.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  const versions = spec.versions ?? [];
  versions.forEach((v, i) => {
    if (!v.schema?.openAPIV3Schema) errs.push(required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
  });
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((v, i) => {
    const path = index('spec.versions', i);
    if (v.storage) storage++;
    const name = v.name ?? '';
    if (seen.has(name)) unique = false;
    seen.add(name);
    const nameErrs = isDns1035Label(name);
    if (nameErrs.length) errs.push(invalid(`${path}.name`, name, nameErrs.join(',')));
    errs.push(...validateVersion(v, path));
  });
  if (!unique) errs.push(invalid('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1) errs.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));

  const names = spec.names ?? {};
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const) if (!names[n]) errs.push(required(`spec.names.${n}`));
  errs.push(...validateNames(names, 'spec.names'));

  const conv = spec.conversion;
  if (conv) {
    if (conv.strategy !== 'None' && conv.strategy !== 'Webhook') errs.push(notSupported('spec.conversion.strategy', conv.strategy ?? '', ['None', 'Webhook']));
    if (conv.strategy === 'Webhook') {
      const cc = conv.webhook?.clientConfig;
      if (!cc) errs.push(required('spec.conversion.webhookClientConfig', 'required when strategy is set to Webhook'));
      else if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required('spec.conversion.webhookClientConfig', 'exactly one of url or service is required'));
      if (!conv.webhook?.conversionReviewVersions?.length) errs.push(required('spec.conversion.conversionReviewVersions'));
    } else if (conv.webhook) {
      errs.push(forbidden('spec.conversion.webhookClientConfig', 'should not be set when strategy is not set to Webhook'));
    }
  }
  if (spec.preserveUnknownFields === true) {
    errs.push(invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errs;
}

export function validateNames(names: NonNullable<CustomResourceDefinitionSpec['names']>, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const label = (field: string, value: string | undefined, lower = false): void => {
    if (!value) return;
    const e = isDns1035Label(lower ? value.toLowerCase() : value);
    if (e.length) errs.push(invalid(`${path}.${field}`, value, (lower ? 'may have mixed case, but should otherwise match: ' : '') + e.join(',')));
  };
  label('plural', names.plural);
  label('singular', names.singular);
  label('kind', names.kind, true);
  label('listKind', names.listKind, true);
  (names.shortNames ?? []).forEach((s, i) => {
    const e = isDns1035Label(s);
    if (e.length) errs.push(invalid(`${path}.shortNames[${i}]`, s, e.join(',')));
  });
  if (names.kind && names.kind === names.listKind) errs.push(invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const e = isDns1035Label(c);
    if (e.length) errs.push(invalid(`${path}.categories[${i}]`, c, e.join(',')));
  });
  return errs;
}

function validateUpdate(spec: CustomResourceDefinitionSpec, old: CustomResourceDefinition): StatusCause[] {
  const errs: StatusCause[] = [];
  const established = (old.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  if (established) {
    if (spec.scope !== old.spec.scope) errs.push(immutable('spec.scope', spec.scope ?? ''));
    if (spec.names?.kind !== old.spec.names?.kind) errs.push(immutable('spec.names.kind', spec.names?.kind ?? ''));
  }
  if (spec.group !== old.spec.group) errs.push(immutable('spec.group', spec.group ?? ''));
  if (spec.names?.plural !== old.spec.names?.plural) errs.push(immutable('spec.names.plural', spec.names?.plural ?? ''));
  return errs;
}
