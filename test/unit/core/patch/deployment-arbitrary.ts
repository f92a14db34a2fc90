// Generated Deployments for the managedFields property tests: keyed lists (containers, ports, env),
// nested keyed lists, set-like (finalizers) and atomic (args) lists, a labels map and a selector.
import fc from 'fast-check';
import type { JsonMap } from '../../../../src/core/patch/json-value.ts';

export const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';

const small = fc.constantFrom('a', 'b', 'c');
const port = fc.record({ containerPort: fc.constantFrom(80, 443), protocol: fc.option(fc.constantFrom('TCP', 'UDP'), { nil: undefined }), name: fc.option(small, { nil: undefined }) }, { requiredKeys: ['containerPort'] });
const container = fc.record({
  name: small,
  image: fc.option(small, { nil: undefined }),
  args: fc.option(fc.array(small, { maxLength: 3 }), { nil: undefined }),
  ports: fc.option(fc.array(port, { maxLength: 3 }), { nil: undefined }),
  env: fc.option(fc.array(fc.record({ name: small, value: fc.option(small, { nil: undefined }) }, { requiredKeys: ['name'] }), { maxLength: 3 }), { nil: undefined }),
}, { requiredKeys: ['name'] });
export const deployment = fc.record({
  labels: fc.option(fc.dictionary(fc.constantFrom('x', 'y', 'z', 'w'), small, { maxKeys: 4 }), { nil: undefined }),
  replicas: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  containers: fc.array(container, { maxLength: 3 }),
  finalizers: fc.option(fc.array(small, { maxLength: 3 }), { nil: undefined }),
  selector: fc.option(fc.dictionary(small, small, { maxKeys: 2 }), { nil: undefined }),
}).map(({ labels, replicas, containers, finalizers, selector }): JsonMap => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'd', ...(labels ? { labels } : {}), ...(finalizers ? { finalizers } : {}) },
  spec: { ...(replicas !== undefined ? { replicas } : {}), ...(selector ? { selector: { matchLabels: selector } } : {}), template: { spec: { containers } } },
}));

