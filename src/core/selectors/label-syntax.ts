// Validation of label keys and values with kube-apiserver's own messages
// (k8s.io/apimachinery/pkg/util/validation), so a tenant sees the same text a
// real cluster would print. Returns the list of problems; empty means valid.

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_MAX = 63;
const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;

// Kube builds these with a loop that leaves two spaces before each "or": keep it byte-for-byte.
function regexError(what: string, fmt: string, examples: string[]): string {
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${what} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

const maxLen = (n: number): string => `must be no more than ${n} characters`;

const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** IsQualifiedName: `[prefix/]name`, prefix a DNS-1123 subdomain, name at most 63 characters. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const e of dns1123SubdomainErrors(prefix)) errs.push(`prefix part ${e}`);
  } else {
    return [regexError(`a qualified name ${QUALIFIED_NAME_MSG}`, QUALIFIED_NAME_FMT, ['MyName', 'my.name', '123-abc'])
      + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLen(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(regexError(`name part ${QUALIFIED_NAME_MSG}`, QUALIFIED_NAME_FMT, ['MyName', 'my.name', '123-abc']));
  }
  return errs;
}

/** IsDNS1123Label: at most 63 lowercase alphanumerics or '-', alphanumeric at both ends. */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLen(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
      DNS1123_LABEL_FMT, ['my-name', '123-abc']));
  }
  return errs;
}

export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLen(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      DNS1123_SUBDOMAIN_FMT, ['example.com']));
  }
  return errs;
}

/** IsValidLabelValue: empty, or a qualified name part of at most 63 characters. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX) errs.push(maxLen(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      LABEL_VALUE_FMT, ['MyValue', 'my_value', '12345']));
  }
  return errs;
}

/** field.Invalid(path, value, detail).Error(): `<path>: Invalid value: "<value>": <detail>`. */
export function invalidValue(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`;
}
