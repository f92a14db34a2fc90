import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invalid } from '../../../../src/core/api-error.ts';
import { required } from '../../../../src/apiserver/validation/field-errors.ts';

describe('invalid() message, as errors.NewInvalid', () => {
  const cases = [
    { name: 'one cause', causes: [required('spec.selector')], want: 'Deployment.apps "x" is invalid: spec.selector: Required value' },
    {
      name: 'several causes in brackets',
      causes: [required('spec.selector'), required('spec.template')],
      want: 'Deployment.apps "x" is invalid: [spec.selector: Required value, spec.template: Required value]',
    },
    { name: 'duplicates collapse', causes: [required('a'), required('a')], want: 'Deployment.apps "x" is invalid: a: Required value' },
    { name: 'no causes', causes: [], want: 'Deployment.apps "x" is invalid' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = invalid({ group: 'apps', kind: 'Deployment', name: 'x' }, c.causes);
      assert.equal(err.message, c.want);
      assert.equal(err.code, 422);
      assert.deepEqual(err.details?.causes, c.causes);
    });
  }
});
