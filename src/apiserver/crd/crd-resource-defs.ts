// The ResourceDefs a CRD serves: one per served version, named by the accepted
// names once the CRD has them (as discovery does), else by spec.names.
import { ALL_VERBS, type ResourceDef, type ScaleSubresource } from '../../core/resources/resource-def.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from './crd-types.ts';
import { applyCrdDefaults } from './crd-defaults.ts';

export function crdResourceDefs(input: CustomResourceDefinition): ResourceDef[] {
  const crd = applyCrdDefaults(input);
  const accepted = crd.status?.acceptedNames;
  const names: CustomResourceDefinitionNames = accepted?.plural ? accepted : crd.spec.names ?? {};
  const kind = names.kind ?? '';
  return (crd.spec.versions ?? [])
    .filter((v) => v.served && v.name)
    .map((v) => {
      const def: ResourceDef = {
        group: crd.spec.group ?? '',
        version: v.name ?? '',
        resource: names.plural ?? '',
        singular: names.singular || kind.toLowerCase(),
        kind,
        listKind: names.listKind || `${kind}List`,
        namespaced: crd.spec.scope === 'Namespaced',
        verbs: [...ALL_VERBS],
        generation: true,
      };
      if (names.shortNames?.length) def.shortNames = [...names.shortNames];
      if (names.categories?.length) def.categories = [...names.categories];
      const sub: NonNullable<ResourceDef['subresources']> = {};
      if (v.subresources?.status !== undefined) sub.status = true;
      const scale = v.subresources?.scale;
      if (scale?.specReplicasPath && scale.statusReplicasPath) {
        const s: ScaleSubresource = { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath };
        if (scale.labelSelectorPath) s.labelSelectorPath = scale.labelSelectorPath;
        sub.scale = s;
      }
      if (sub.status || sub.scale) def.subresources = sub;
      return def;
    });
}
