// OpenAPI v2 as protobuf (openapi.v2.Document), the form client-go asks for.
//
// Serving rules, from kube-openapi's handler (pkg/handler):
// - Accept media types: application/com.github.proto-openapi.spec.v2@v1.0+protobuf
//   (what client-go sends, and only that) and the corrected
//   application/com.github.proto-openapi.spec.v2.v1.0+protobuf.
// - Content-Type of the answer is always the corrected form, never the one
//   with "@": "@" is not legal in a media subtype, Go's mime.ParseMediaType
//   rejects it, and client-go then fails with "InternalError ... mime:
//   unexpected content after media subtype" (kubernetes/kube-openapi#354).
// - ETag: the same one as the JSON document (kube computes it over the JSON).
export { encodeOpenApiV2Protobuf } from './encode-document.ts';

/** The media type client-go's discovery client sends in Accept. */
export const OPENAPI_V2_PROTOBUF_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The media type to answer with (Content-Type), also accepted in Accept. */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** True for a media type (parameters stripped, lower-cased) that asks for the protobuf document. */
export function isOpenApiV2ProtobufType(mediaType: string): boolean {
  return mediaType === OPENAPI_V2_PROTOBUF_ACCEPT || mediaType === OPENAPI_V2_PROTOBUF_CONTENT_TYPE;
}
