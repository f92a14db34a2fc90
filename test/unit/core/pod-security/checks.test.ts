// Pod Security Standards checks, case by case from the standard (baseline and
// restricted, "latest"), with kube's reasons and details; then properties: a
// restricted-compliant pod with any one baseline violation fails both levels,
// and no body, however malformed, makes a check throw.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeViolations, evaluatePod, podSpecUpdateIsSignificant, readNamespacePolicy } from '../../../../src/core/pod-security/index.ts';

const container = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'busybox', ...extra });
const restrictedSc = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
/** Passes restricted: runAsNonRoot and seccomp on the pod, the rest on the container. */
const compliant = () => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [container({ securityContext: structuredClone(restrictedSc) })],
});

describe('pod security: a plain pod', () => {
  it('passes baseline and fails restricted with kube\'s four reasons, in kube\'s words', () => {
    const spec = { containers: [container()] };
    assert.deepEqual(evaluatePod('baseline', {}, spec), []);
    const found = evaluatePod('restricted', {}, spec);
    assert.equal(describeViolations({ level: 'restricted', version: 'latest' }, found),
      'violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), '
      + 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), '
      + 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), '
      + 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
  });

  it('a compliant pod passes restricted; privileged allows anything', () => {
    assert.deepEqual(evaluatePod('restricted', {}, compliant()), []);
    assert.deepEqual(evaluatePod('privileged', {}, { hostNetwork: true, containers: [container({ securityContext: { privileged: true } })] }), []);
  });

  it('names several containers as kube does', () => {
    const spec = { containers: [container({ name: 'a' }), container({ name: 'b' })], initContainers: [container({ name: 'i', securityContext: { privileged: true } })] };
    const found = evaluatePod('restricted', {}, spec);
    assert.equal(found[0]?.detail, 'containers "a", "b", "i" must set securityContext.allowPrivilegeEscalation=false');
    assert.ok(found.some((v) => v.reason === 'privileged' && v.detail === 'container "i" must not set securityContext.privileged=true'));
  });
});

type Mutate = (spec: any, meta: any) => void;
const c0 = (spec: any) => spec.containers[0];
const BASELINE_CASES: Array<{ name: string; mutate: Mutate; reason: string; detail: string }> = [
  { name: 'hostProcess', mutate: (s) => { s.securityContext.windowsOptions = { hostProcess: true }; }, reason: 'hostProcess', detail: 'pod must not set securityContext.windowsOptions.hostProcess=true' },
  { name: 'host namespaces', mutate: (s) => { s.hostNetwork = true; s.hostPID = true; }, reason: 'host namespaces', detail: 'hostNetwork=true, hostPID=true' },
  { name: 'privileged', mutate: (s) => { c0(s).securityContext.privileged = true; }, reason: 'privileged', detail: 'container "c" must not set securityContext.privileged=true' },
  { name: 'hostPath', mutate: (s) => { s.volumes = [{ name: 'h', hostPath: { path: '/' } }]; }, reason: 'hostPath volumes', detail: 'volume "h"' },
  { name: 'hostPort', mutate: (s) => { c0(s).ports = [{ containerPort: 80, hostPort: 8080 }]; }, reason: 'hostPort', detail: 'container "c" uses hostPort 8080' },
  { name: 'AppArmor annotation', mutate: (_s, m) => { m.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' }; }, reason: 'forbidden AppArmor profile', detail: 'container.apparmor.security.beta.kubernetes.io/c="unconfined"' },
  { name: 'AppArmor field', mutate: (s) => { s.securityContext.appArmorProfile = { type: 'Unconfined' }; }, reason: 'forbidden AppArmor profile', detail: 'securityContext.appArmorProfile.type="Unconfined"' },
  { name: 'SELinux type', mutate: (s) => { c0(s).securityContext.seLinuxOptions = { type: 'spc_t' }; }, reason: 'seLinuxOptions', detail: 'container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"' },
  { name: 'SELinux user', mutate: (s) => { s.securityContext.seLinuxOptions = { user: 'root' }; }, reason: 'seLinuxOptions', detail: 'pod set forbidden securityContext.seLinuxOptions: user "root"' },
  { name: '/proc mount', mutate: (s) => { c0(s).securityContext.procMount = 'Unmasked'; }, reason: 'procMount', detail: 'container "c" must not set securityContext.procMount to "Unmasked"' },
  { name: 'seccomp Unconfined', mutate: (s) => { s.securityContext.seccompProfile = { type: 'Unconfined' }; }, reason: 'seccompProfile', detail: 'pod must not set securityContext.seccompProfile.type to "Unconfined"' },
  { name: 'sysctls', mutate: (s) => { s.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }]; }, reason: 'forbidden sysctls', detail: 'kernel.msgmax' },
];

describe('pod security: baseline checks', () => {
  for (const c of BASELINE_CASES) {
    it(`${c.name} is refused at baseline and restricted`, () => {
      const spec: any = compliant();
      const meta: any = {};
      c.mutate(spec, meta);
      const found = evaluatePod('baseline', meta, spec);
      assert.ok(found.some((v) => v.reason === c.reason && v.detail === c.detail), JSON.stringify(found));
      assert.ok(evaluatePod('restricted', meta, spec).length > 0);
    });
  }

  it('allowed capabilities and runtime/default profiles pass baseline', () => {
    const spec: any = { securityContext: { seLinuxOptions: { type: 'container_t' }, sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1 2' }] },
      containers: [container({ securityContext: { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] }, procMount: 'Default' } })] };
    assert.deepEqual(evaluatePod('baseline', { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' } }, spec), []);
  });

  it('non-default capabilities are named, baseline\'s reason', () => {
    const spec = { containers: [container({ securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN', 'SYS_ADMIN'] } } })] };
    assert.deepEqual(evaluatePod('baseline', {}, spec), [{ reason: 'non-default capabilities', detail: 'container "c" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add' }]);
  });
});

const RESTRICTED_CASES: Array<{ name: string; mutate: Mutate; reason: string; detail: string }> = [
  { name: 'volume types', mutate: (s) => { s.volumes = [{ name: 'n', nfs: { server: 'x', path: '/' } }, { name: 'ok', emptyDir: {} }]; }, reason: 'restricted volume types', detail: 'volume "n" uses restricted volume type "nfs"' },
  { name: 'privilege escalation', mutate: (s) => { c0(s).securityContext.allowPrivilegeEscalation = true; }, reason: 'allowPrivilegeEscalation != false', detail: 'container "c" must set securityContext.allowPrivilegeEscalation=false' },
  { name: 'runAsNonRoot false', mutate: (s) => { s.securityContext.runAsNonRoot = false; }, reason: 'runAsNonRoot != true', detail: 'pod must not set securityContext.runAsNonRoot=false' },
  { name: 'runAsNonRoot false on a container', mutate: (s) => { c0(s).securityContext.runAsNonRoot = false; }, reason: 'runAsNonRoot != true', detail: 'container "c" must not set securityContext.runAsNonRoot=false' },
  { name: 'runAsUser 0', mutate: (s) => { c0(s).securityContext.runAsUser = 0; }, reason: 'runAsUser=0', detail: 'container "c" must not set runAsUser=0' },
  { name: 'no seccomp', mutate: (s) => { delete s.securityContext.seccompProfile; }, reason: 'seccompProfile', detail: 'pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' },
  { name: 'capabilities not dropped', mutate: (s) => { c0(s).securityContext.capabilities = { add: ['NET_BIND_SERVICE'] }; }, reason: 'unrestricted capabilities', detail: 'container "c" must set securityContext.capabilities.drop=["ALL"]' },
  { name: 'capabilities added', mutate: (s) => { c0(s).securityContext.capabilities.add = ['SYS_TIME']; }, reason: 'unrestricted capabilities', detail: 'container "c" must not include "SYS_TIME" in securityContext.capabilities.add' },
];

describe('pod security: restricted checks', () => {
  for (const c of RESTRICTED_CASES) {
    it(`${c.name} is refused at restricted only`, () => {
      const spec: any = compliant();
      c.mutate(spec, {});
      const found = evaluatePod('restricted', {}, spec);
      assert.ok(found.some((v) => v.reason === c.reason && v.detail === c.detail), JSON.stringify(found));
      if (c.name !== 'capabilities added') assert.deepEqual(evaluatePod('baseline', {}, spec), []);
    });
  }

  it('a container-level seccomp or runAsNonRoot on every container satisfies restricted without the pod\'s', () => {
    const spec: any = { containers: [container({ securityContext: { ...restrictedSc, runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p' } } })] };
    assert.deepEqual(evaluatePod('restricted', {}, spec), []);
  });

  it('a Windows pod is exempt from the Linux-only restricted checks', () => {
    const spec: any = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [container()] };
    assert.deepEqual(evaluatePod('restricted', {}, spec), []);
  });
});

describe('pod security: properties', () => {
  it('any one baseline violation added to a restricted-compliant pod fails baseline and restricted', () => {
    fc.assert(fc.property(fc.constantFrom(...BASELINE_CASES), fc.boolean(), (c, second) => {
      const spec: any = compliant();
      if (second) spec.containers.push(container({ name: 'd', securityContext: structuredClone(restrictedSc) }));
      const meta: any = {};
      c.mutate(spec, meta);
      return evaluatePod('baseline', meta, spec).length > 0 && evaluatePod('restricted', meta, spec).length > 0;
    }));
  });

  it('no body makes a check throw, and privileged never refuses', () => {
    fc.assert(fc.property(fc.anything(), fc.anything(), (meta, spec) => {
      evaluatePod('restricted', meta, spec);
      evaluatePod('baseline', meta, spec);
      return evaluatePod('privileged', meta, spec).length === 0;
    }));
  });

  it('a security field with a forged type never passes as compliant', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string())), (forged) => {
      const spec: any = compliant();
      c0(spec).securityContext.allowPrivilegeEscalation = forged;
      return evaluatePod('restricted', {}, spec).some((v) => v.reason === 'allowPrivilegeEscalation != false');
    }));
  });
});

describe('pod security: namespace labels', () => {
  it('reads levels and versions; unlabelled is privileged', () => {
    const { policy, errors } = readNamespacePolicy({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/warn-version': 'v1.29' });
    assert.deepEqual(errors, []);
    assert.deepEqual(policy, { enforce: { level: 'baseline', version: 'latest' }, audit: { level: 'privileged', version: 'latest' }, warn: { level: 'restricted', version: 'v1.29' } });
  });

  it('a bad enforce label is an error and enforces restricted; a bad warn label only an error', () => {
    const { policy, errors } = readNamespacePolicy({ 'pod-security.kubernetes.io/enforce': 'none', 'pod-security.kubernetes.io/warn-version': '1.29' });
    assert.deepEqual(errors.map((e) => e.field), ['metadata.labels[pod-security.kubernetes.io/enforce]', 'metadata.labels[pod-security.kubernetes.io/warn-version]']);
    assert.equal(policy.enforce.level, 'restricted');
    assert.equal(policy.warn.level, 'privileged');
  });
});

describe('pod security: significant updates', () => {
  it('only images, container counts and security annotations count', () => {
    const old = { metadata: { labels: { a: '1' } }, spec: { containers: [container()] } };
    assert.equal(podSpecUpdateIsSignificant({ metadata: { labels: { a: '2' } }, spec: { containers: [container()] } }, old), false);
    assert.equal(podSpecUpdateIsSignificant({ metadata: {}, spec: { containers: [container({ image: 'other' })] } }, old), true);
    assert.equal(podSpecUpdateIsSignificant({ metadata: {}, spec: { containers: [container()], ephemeralContainers: [container({ name: 'e' })] } }, old), true);
    assert.equal(podSpecUpdateIsSignificant({ metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } }, spec: { containers: [container()] } }, old), true);
  });
});
