import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createEchoRecord } from '../../../../src/controllers/propagation/echo-record.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const at = (resourceVersion: string): KubeObject => ({ metadata: { name: 'x', resourceVersion } });

describe('echo record (the engine\'s own writes wake nothing, every other event still does)', () => {
  it('an echo after the answer is dropped, once', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('k');
    echoes.end('k', at('5'));
    echoes.route('k', at('5'), () => wakes++);
    assert.equal(wakes, 0);
    echoes.route('k', at('5'), () => wakes++); // a replay (relist) of the same version is news again
    assert.equal(wakes, 1);
    assert.equal(echoes.size(), 0);
  });

  it('an echo before the answer is held, then dropped when the answer matches it', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('k');
    echoes.route('k', at('5'), () => wakes++);
    assert.equal(wakes, 0);
    echoes.end('k', at('5'));
    assert.equal(wakes, 0);
    assert.equal(echoes.size(), 0);
  });

  it('someone else\'s change during the write is held, then delivered when the write ends', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('k');
    echoes.route('k', at('4'), () => wakes++);
    assert.equal(wakes, 0);
    echoes.end('k', at('5'));
    assert.equal(wakes, 1);
  });

  it('a failed write delivers what it held', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('k');
    echoes.route('k', at('4'), () => wakes++);
    echoes.end('k', undefined);
    assert.equal(wakes, 1);
    assert.equal(echoes.size(), 0);
  });

  it('keys are independent, and an event for a key never written wakes at once', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('a');
    echoes.end('a', at('5'));
    echoes.route('b', at('5'), () => wakes++);
    assert.equal(wakes, 1);
  });

  it('forget (a deletion) delivers what was held', () => {
    const echoes = createEchoRecord();
    let wakes = 0;
    echoes.begin('k');
    echoes.route('k', at('4'), () => wakes++);
    echoes.forget('k');
    assert.equal(wakes, 1);
  });

  it('stays bounded: past the limit the oldest settled entries go', () => {
    const echoes = createEchoRecord(3);
    for (let i = 0; i < 10; i++) {
      echoes.begin(`k${i}`);
      echoes.end(`k${i}`, at(String(i)));
    }
    assert.ok(echoes.size() <= 4);
  });

  it('any interleaving of own writes (overlapping, echo before or after the answer) and foreign events: each foreign event wakes once, no echo wakes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (writes, foreign, choices) => {
      const echoes = createEchoRecord();
      let rv = 0;
      const own = Array.from({ length: writes }, () => ({ begun: false, ended: false, echoed: false, rv: '' }));
      const foreignFired = Array.from({ length: foreign }, () => false);
      let wakes = 0;
      // Versions are given out in write order, as the apiserver does.
      const steps: Array<() => void> = [];
      let c = 0;
      for (;;) {
        steps.length = 0;
        own.forEach((w) => {
          if (!w.begun) steps.push(() => { w.begun = true; w.rv = String(++rv); echoes.begin('k'); });
          else {
            if (!w.ended) steps.push(() => { w.ended = true; echoes.end('k', at(w.rv)); });
            if (!w.echoed) steps.push(() => { w.echoed = true; echoes.route('k', at(w.rv), () => { throw new Error(`echo ${w.rv} woke`); }); });
          }
        });
        foreignFired.forEach((f, i) => { if (!f) steps.push(() => { foreignFired[i] = true; echoes.route('k', at(`x${++rv}`), () => wakes++); }); });
        if (steps.length === 0) break;
        (steps[(choices[c++ % choices.length] ?? 0) % steps.length] as () => void)();
      }
      assert.equal(wakes, foreign);
      assert.equal(echoes.size(), 0);
    }), { numRuns: 500 });
  });
});
