// Request bodies for the gateway: read (3 MiB cap), decoded from JSON, YAML or
// Kubernetes protobuf into plain JSON objects.
import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { decodeBody, decodeBodyInSteps, GATEWAY_JSON_LIMITS, readBody, type BodyType } from '../../http/request-body.ts';
import { isLarge, yieldToLoop } from '../../http/yield-to-loop.ts';
import { bodyReadFirst } from './body-read-first.ts';

export async function readRequestValue(req: IncomingMessage, expected?: BodyType): Promise<unknown> {
  // Read before the seat (body-read-first.ts) when the gateway has seats: the stream is spent then.
  const body = bodyReadFirst(req) ?? await readBody(req);
  // The gateway's limits (ADR 0026): also a bound on members per object, which the embedded apiserver does not set.
  // A small body (every ConfigMap a bench writes) is decoded in this turn: no step is long enough to cut.
  if (!isLarge(body.length)) return decodeBody(body, req.headers['content-type'], expected, GATEWAY_JSON_LIMITS);
  // A large body's last bytes came in the loop turn that read them: decoding waits for the next (yield-to-loop.ts).
  await yieldToLoop();
  // A large body is parsed in slices (json-slices.ts): no one step of the parse holds the loop for long.
  const value = await decodeBodyInSteps(body, req.headers['content-type'], expected, GATEWAY_JSON_LIMITS);
  // ...and translation for the one after.
  await yieldToLoop();
  return value;
}

export async function readRequestObject(req: IncomingMessage, expected?: BodyType): Promise<KubeObject> {
  const value = await readRequestValue(req, expected);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  }
  const obj = value as KubeObject;
  if (obj.metadata === undefined) obj.metadata = {};
  return obj;
}
