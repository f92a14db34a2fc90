import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatImage, overrideImage, parseImage, splitHostname } from '../../../../../src/core/propagation/override/index.ts';
import type { ImageOverrider } from '../../../../../src/core/propagation/karmada-types.ts';

const DIGEST = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';

describe('parseImage (Karmada imageparser vectors)', () => {
  const cases: Array<[string, string, string, string, string]> = [
    ['pause', '', 'pause', '', ''],
    ['subpath/imagename:v1.0.0', '', 'subpath/imagename', 'v1.0.0', ''],
    ['fictional.registry.example/imagename:v1.0.0', 'fictional.registry.example', 'imagename', 'v1.0.0', ''],
    ['fictional.registry.example:10443/subpath/imagename:v1.0.0', 'fictional.registry.example:10443', 'subpath/imagename', 'v1.0.0', ''],
    [`fictional.registry.example:10443/subpath/imagename@${DIGEST}`, 'fictional.registry.example:10443', 'subpath/imagename', '', DIGEST],
    ['localhost/app', 'localhost', 'app', '', ''],
    ['10.10.10.10:10443/subpath/imagename', '10.10.10.10:10443', 'subpath/imagename', '', ''],
    // No docker.io normalisation: reference.Parse, not ParseNormalizedNamed.
    ['library/nginx:1.25', '', 'library/nginx', '1.25', ''],
  ];
  for (const [image, host, repo, tag, digest] of cases) {
    it(image, () => {
      const c = parseImage(image);
      assert.deepEqual(c, { hostname: host, repository: repo, tag, digest });
      assert.equal(formatImage(c), image);
    });
  }
  it('tag and digest together print back with the tag only', () => {
    assert.equal(formatImage(parseImage(`nginx:1.0@${DIGEST}`)), 'nginx:1.0');
  });
  const bad: Array<[string, string]> = [
    ['Nginx', 'repository name must be lowercase'],
    ['nginx:', 'invalid reference format'],
    ['', 'repository name must have at least one component'],
    ['nginx@sha256:abcdefabcdefabcdefabcdefabcdefab', 'invalid checksum digest length'],
  ];
  for (const [image, message] of bad) it(`rejects ${JSON.stringify(image)}`, () => assert.throws(() => parseImage(image), { message }));
  it('splitHostname', () => {
    assert.deepEqual(splitHostname('imagename'), { hostname: '', repository: 'imagename' });
    assert.deepEqual(splitHostname(''), { hostname: '', repository: '' });
  });
});

describe('overrideImage', () => {
  const o = (component: ImageOverrider['component'], operator: ImageOverrider['operator'], value?: string): ImageOverrider =>
    (value === undefined ? { component, operator } : { component, operator, value });
  const cases: Array<[string, ImageOverrider, string]> = [
    ['nginx:1.0', o('Registry', 'add', 'registry.k8s.io'), 'registry.k8s.io/nginx:1.0'],
    ['a.io/nginx:1.0', o('Registry', 'add', '-cn'), 'a.io-cn/nginx:1.0'],
    ['a.io/nginx:1.0', o('Registry', 'replace', 'b.io'), 'b.io/nginx:1.0'],
    ['a.io/nginx:1.0', o('Registry', 'remove'), 'nginx:1.0'],
    ['a.io/nginx:1.0', o('Repository', 'replace', 'team/web'), 'a.io/team/web:1.0'],
    ['a.io/nginx:1.0', o('Repository', 'add', '-debug'), 'a.io/nginx-debug:1.0'],
    ['nginx', o('Tag', 'replace', 'test'), 'nginx:test'],
    ['nginx:1.0', o('Tag', 'add', '-alpine'), 'nginx:1.0-alpine'],
    ['nginx:1.0', o('Tag', 'remove'), 'nginx'],
    ['nginx:1.0', o('Tag', 'replace', DIGEST), `nginx@${DIGEST}`],
    [`nginx@${DIGEST}`, o('Tag', 'replace', 'v2'), 'nginx:v2'],
    ['nginx:1.0', o('Tag', 'replace', 'not a tag!'), 'nginx:1.0'],
  ];
  for (const [image, ov, want] of cases) it(`${image} ${ov.component} ${ov.operator} ${ov.value ?? ''}`, () => assert.equal(overrideImage(image, ov, 'f'), want));
});
