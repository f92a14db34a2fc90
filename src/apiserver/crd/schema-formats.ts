// The string formats kube-apiserver knows for CRD schemas (apiextensions'
// supportedFormats). Others are accepted in the schema and ignored, and, as in
// kube-openapi, formats only ever constrain string values (int32 on an integer
// is documentation, not validation).
import { fullFormats } from 'ajv-formats/dist/formats.js';

type Check = (s: string) => boolean;

function fromAjv(name: keyof typeof fullFormats): Check {
  const f = fullFormats[name];
  if (typeof f === 'function') return f as Check;
  if (f instanceof RegExp) return (s) => f.test(s);
  if (f && typeof f === 'object' && 'validate' in f) {
    const v = f.validate;
    return typeof v === 'function' ? (v as Check) : (s) => (v as RegExp).test(s);
  }
  return () => true;
}

const re = (r: RegExp): Check => (s) => r.test(s);
const UUID = '[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}';
const uuidV = (v: string): Check => re(new RegExp(`^${UUID.replace('V', v)}$`, 'i'));
const ipv4 = fromAjv('ipv4');
const ipv6 = fromAjv('ipv6');

function isCidr(s: string): boolean {
  const [ip, prefix, ...rest] = s.split('/');
  if (rest.length || ip === undefined || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return (ipv4(ip) && bits <= 32) || (ipv6(ip) && bits <= 128);
}

function luhn(s: string): boolean {
  const digits = s.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isIsbn10(s: string): boolean {
  const c = s.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(c)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (c[i] === 'X' ? 10 : Number(c[i])) * (10 - i);
  return sum % 11 === 0;
}

function isIsbn13(s: string): boolean {
  const c = s.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(c)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(c[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

/** Go time.ParseDuration syntax, which kube uses for "duration" (not ISO 8601). */
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;

export const KUBE_FORMATS: Record<string, Check> = {
  bsonobjectid: re(/^[0-9a-fA-F]{24}$/),
  uri: (s) => s.length > 0,
  email: fromAjv('email'),
  hostname: fromAjv('hostname'),
  ipv4,
  ipv6,
  cidr: isCidr,
  mac: re(/^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/),
  uuid: re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i),
  uuid3: uuidV('3'),
  uuid4: uuidV('4'),
  uuid5: uuidV('5'),
  isbn: (s) => isIsbn10(s) || isIsbn13(s),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: luhn,
  ssn: re(/^\d{3}[- ]?\d{2}[- ]?\d{4}$/),
  hexcolor: re(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  rgbcolor: re(/^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/),
  byte: re(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/),
  password: () => true,
  date: fromAjv('date'),
  duration: re(GO_DURATION),
  datetime: fromAjv('date-time'),
  'date-time': fromAjv('date-time'),
};
