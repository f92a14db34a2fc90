// DER for the few variable parts of a tenant user certificate: serial, validity,
// subject, and the TBSCertificate and Certificate around them. Everything else
// (issuer name, extensions, public key) arrives as DER that @peculiar/x509 or
// node:crypto produced, so the only encoding done by hand is this file's.
//
// Why by hand: @peculiar/x509's X509CertificateGenerator.create serialises and
// re-parses the whole certificate through pure-JS ASN.1 (asn1js), ~2.7 ms of CPU
// per certificate, the largest single item of `warren serve` while onboarding
// (issue 4); these few bytes cost ~0.02 ms. The output is checked byte for byte
// against @peculiar/x509's own TBSCertificate (test/unit/tenants/credentials).

/** AlgorithmIdentifier ecdsa-with-SHA256 (1.2.840.10045.4.3.2), no parameters (RFC 5758 3.2). */
export const ECDSA_WITH_SHA256 = Buffer.from('300a06082a8648ce3d040302', 'hex');

/** version [0] EXPLICIT INTEGER 2 (v3). */
const VERSION_V3 = Buffer.from('a003020102', 'hex');

/** The name attributes a tenant user certificate carries (RFC 5280 A.1). */
const ATTRIBUTE_OIDS = {
  CN: Buffer.from('0603550403', 'hex'), // 2.5.4.3 commonName
  OU: Buffer.from('060355040b', 'hex'), // 2.5.4.11 organizationalUnitName
  O: Buffer.from('060355040a', 'hex'), // 2.5.4.10 organizationName
} as const;

export type NameAttribute = keyof typeof ATTRIBUTE_OIDS;

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: tag, definite length, contents. */
export function der(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const SEQUENCE = 0x30;
const SET = 0x31;

/** A non-negative INTEGER from big-endian magnitude bytes: minimal, with a 0x00 when the top bit is set. */
export function derPositiveInteger(magnitude: Uint8Array): Buffer {
  let first = 0;
  while (first < magnitude.length - 1 && magnitude[first] === 0) first++;
  const bytes = magnitude.length === 0 ? Buffer.from([0]) : Buffer.from(magnitude.subarray(first));
  return der(0x02, (bytes[0] ?? 0) > 0x7f ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

const two = (n: number): string => String(n).padStart(2, '0');

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; whole seconds, Z. */
export function derTime(date: Date): Buffer {
  const year = date.getUTCFullYear();
  const rest = `${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}Z`;
  return year <= 2049 ? der(0x17, Buffer.from(`${two(year % 100)}${rest}`, 'latin1')) : der(0x18, Buffer.from(`${String(year).padStart(4, '0')}${rest}`, 'latin1'));
}

// X.520 PrintableString's alphabet (what @peculiar/x509 tests to choose it; anything else is UTF8String).
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/**
 * A Name of single-valued RDNs, in order. Values are data, never parsed: a user called
 * `eve, OU=other` is one CN with that text (PrintableString when its alphabet allows,
 * else UTF8String).
 */
export function derName(rdns: ReadonlyArray<readonly [NameAttribute, string]>): Buffer {
  return der(SEQUENCE, ...rdns.map(([type, value]) => {
    const text = PRINTABLE.test(value) ? der(0x13, Buffer.from(value, 'latin1')) : der(0x0c, Buffer.from(value, 'utf8'));
    return der(SET, der(SEQUENCE, ATTRIBUTE_OIDS[type], text));
  }));
}

/** OID 2.5.29.17 subjectAltName. */
const SUBJECT_ALT_NAME = Buffer.from('0603551d11', 'hex');

/** A non-critical subjectAltName extension of URIs (GeneralName [6] IA5String), DER. */
export function derSubjectAltNameUris(uris: readonly string[]): Buffer {
  for (const uri of uris) if (!/^[\x21-\x7e]+$/.test(uri)) throw new TypeError(`not an IA5 URI: ${JSON.stringify(uri)}`);
  return der(SEQUENCE, SUBJECT_ALT_NAME, der(0x04, der(SEQUENCE, ...uris.map((uri) => der(0x86, Buffer.from(uri, 'ascii'))))));
}

export interface TbsParts {
  serial: Uint8Array;
  /** The issuer's Name, DER. */
  issuer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** The subject's Name, DER (derName). */
  subject: Uint8Array;
  /** SubjectPublicKeyInfo, DER (as node:crypto exports 'spki'). */
  spki: Uint8Array;
  /** Each Extension, DER, in order. */
  extensions: readonly Uint8Array[];
}

/** RFC 5280 4.1: TBSCertificate, v3, signed with ecdsa-with-SHA256. */
export function buildTbsCertificate(parts: TbsParts): Buffer {
  return der(SEQUENCE,
    VERSION_V3,
    derPositiveInteger(parts.serial),
    ECDSA_WITH_SHA256,
    parts.issuer,
    der(SEQUENCE, derTime(parts.notBefore), derTime(parts.notAfter)),
    parts.subject,
    parts.spki,
    der(0xa3, der(SEQUENCE, ...parts.extensions)));
}

/** Certificate = TBSCertificate, the algorithm again, and the signature (DER ECDSA-Sig-Value) as a BIT STRING. */
export function buildCertificate(tbs: Uint8Array, signature: Uint8Array): Buffer {
  return der(SEQUENCE, tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.from([0]), signature));
}
