// A valid CRD to mutate in tests.
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../../src/apiserver/crd/crd-types.ts';

export const widgetSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', minimum: 0, default: 1 },
        image: { type: 'string' },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
  },
};

export function widgetCrd(mutate?: (crd: CustomResourceDefinition) => void): CustomResourceDefinition {
  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', uid: 'u1', resourceVersion: '1' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: structuredClone(widgetSchema) },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        },
      ],
    },
  };
  mutate?.(crd);
  return crd;
}
