// Kubernetes protobuf (application/vnd.kubernetes.protobuf) for built-in types:
// kubectl's typed clients send it, and Warren speaks JSON inside, so bodies are
// turned into exactly the JSON kube's own encoder would have produced.
import { badRequest } from '../api-error.ts';
import type { KubeObject } from '../types.ts';
import { decodeMessage } from './decode-message.ts';
import { encodeMessage } from './encode-message.ts';
import { openEnvelope, sealEnvelope } from './envelope.ts';
import { messageForKind } from './message-schema.ts';

export const KUBE_PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** True for application/vnd.kubernetes.protobuf with any parameters (case-insensitive). */
export function isKubeProtobuf(contentType: string | undefined | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === KUBE_PROTOBUF;
}

export interface DecodeDefaults {
  /** From the request path, used when the body's typeMeta leaves them empty (as kube does). */
  apiVersion?: string;
  kind?: string;
}

function typeOf(apiVersion: string, kind: string): string {
  const name = messageForKind(apiVersion, kind);
  if (!name) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
  return name;
}

/** Decodes an enveloped body into kube JSON, kind and apiVersion first. Throws ApiError BadRequest. */
export function decodeKubeProtobuf(bytes: Uint8Array, defaults: DecodeDefaults = {}): KubeObject {
  const env = openEnvelope(bytes);
  if (env.contentEncoding) throw badRequest(`protobuf: unsupported content encoding "${env.contentEncoding}"`);
  if (env.contentType && !isKubeProtobuf(env.contentType)) throw badRequest(`protobuf: unsupported content type "${env.contentType}" in envelope`);
  const apiVersion = env.apiVersion || defaults.apiVersion || '';
  const kind = env.kind || defaults.kind || '';
  if (!kind) throw badRequest("Object 'Kind' is missing in protobuf body");
  const body = decodeMessage(typeOf(apiVersion, kind), env.raw, (raw) => decodeKubeProtobuf(raw));
  return { kind, apiVersion, ...body } as KubeObject;
}

/** Encodes kube JSON (with apiVersion and kind) into an enveloped protobuf body. */
export function encodeKubeProtobuf(obj: { apiVersion?: string; kind?: string; [field: string]: unknown }): Uint8Array {
  const { apiVersion, kind, ...rest } = obj;
  if (!apiVersion || !kind) throw badRequest('protobuf: object needs apiVersion and kind to be encoded');
  return sealEnvelope(apiVersion, kind, encodeMessage(typeOf(apiVersion, kind), rest));
}
