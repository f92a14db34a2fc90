// The name syntaxes of k8s.io/apimachinery/pkg/util/validation, returning the
// exact messages kube-apiserver puts after `Invalid value: "<name>": `.

import { dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../../core/selectors/index.ts';

export const DNS1123_SUBDOMAIN_MAX = 253;
export const DNS1035_LABEL_MAX = 63;

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const configMapKeyFmt = '[-._a-zA-Z0-9]+';

const whole = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const dns1035LabelRe = whole(dns1035LabelFmt);
const configMapKeyRe = whole(configMapKeyFmt);

/** validation.RegexError: note the doubled space kube produces between examples. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

export const EMPTY_ERROR = 'must be non-empty';

/** One implementation each with the selector parser's (kube's IsDNS1123Label and IsDNS1123Subdomain). */
export const isDNS1123Label = dns1123LabelErrors;
export const isDNS1123Subdomain = dns1123SubdomainErrors;

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1035_LABEL_MAX) errs.push(maxLenError(DNS1035_LABEL_MAX));
  if (!dns1035LabelRe.test(value)) {
    errs.push(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", dns1035LabelFmt, 'my-name', 'abc-123'));
  }
  return errs;
}

/** Label keys, annotation keys, finalizers: `[prefix/]name` (kube's IsQualifiedName, shared with the selector parser). */
export const isQualifiedName = qualifiedNameErrors;

/** Label values (kube's IsValidLabelValue, shared with the selector parser). */
export const isValidLabelValue = labelValueErrors;

/** ConfigMap and Secret data keys. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!configMapKeyRe.test(value)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Names that become one URL path segment (RBAC objects, PVs, HPA targets). */
export function isValidPathSegmentName(value: string, prefix = false): string[] {
  const errs: string[] = [];
  if (!prefix) for (const bad of ['.', '..']) if (value === bad) errs.push(`may not be '${bad}'`);
  for (const bad of ['/', '%']) if (value.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

const portNameCharsetRe = /^[-a-z0-9]+$/;
const portNameOneLetterRe = /[a-z]/;

/** IANA_SVC_NAME: used for named container ports and string targetPorts. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!portNameCharsetRe.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!portNameOneLetterRe.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push("must not begin or end with a hyphen");
  return errs;
}
