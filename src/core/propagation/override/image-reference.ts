// Container image references as Karmada's imageparser reads them: the
// distribution/reference grammar via reference.Parse (NOT ParseNormalizedNamed),
// so "nginx" has no registry at all; no "docker.io" or "library/" is added.
//   [registry[:port]/]repository[:tag][@digest]
// When both a tag and a digest are present Karmada keeps the tag only when it
// prints the image back (Components.String prefers the tag).

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
export const ANCHORED_TAG = new RegExp(`^${TAG}$`);
export const ANCHORED_DIGEST = new RegExp(`^${DIGEST}$`);
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
const NAME_TOTAL_LENGTH_MAX = 255;

export interface ImageComponents {
  hostname: string;
  repository: string;
  tag: string;
  digest: string;
}

/** reference.Parse plus imageparser.SplitHostname; throws Error with distribution's messages. */
export function parseImage(image: string): ImageComponents {
  if (image === '') throw new Error('repository name must have at least one component');
  const m = REFERENCE.exec(image);
  if (!m) {
    if (REFERENCE.test(image.toLowerCase())) throw new Error('repository name must be lowercase');
    throw new Error('invalid reference format');
  }
  const name = m[1] ?? '';
  if (name.length > NAME_TOTAL_LENGTH_MAX) throw new Error(`repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`);
  const digest = m[3] ?? '';
  if (digest) {
    const [algorithm = '', hex = ''] = digest.split(':');
    const want = DIGEST_HEX_LENGTH[algorithm];
    if (want === undefined) throw new Error('unsupported digest algorithm');
    if (hex.length !== want) throw new Error('invalid checksum digest length');
  }
  const { hostname, repository } = splitHostname(name);
  return { hostname, repository, tag: m[2] ?? '', digest };
}

/** The first path element is a registry when it looks like a host: has '.' or ':', or is "localhost". */
export function splitHostname(name: string): { hostname: string; repository: string } {
  const i = name.indexOf('/');
  if (i === -1) return { hostname: '', repository: name };
  const first = name.slice(0, i);
  if (!/[.:]/.test(first) && first !== 'localhost') return { hostname: '', repository: name };
  return { hostname: first, repository: name.slice(i + 1) };
}

export function formatImage(c: ImageComponents): string {
  const full = c.hostname ? `${c.hostname}/${c.repository}` : c.repository;
  if (c.tag) return `${full}:${c.tag}`;
  if (c.digest) return `${full}@${c.digest}`;
  return full;
}

export function tagOrDigest(c: ImageComponents): string {
  return c.tag || c.digest;
}

/** SetTagOrDigest: a value that is neither a tag nor a digest leaves the image as it was. */
export function withTagOrDigest(c: ImageComponents, value: string): ImageComponents {
  if (ANCHORED_TAG.test(value)) return { ...c, tag: value, digest: '' };
  if (ANCHORED_DIGEST.test(value)) return { ...c, digest: value, tag: '' };
  return c;
}

export function withoutTagOrDigest(c: ImageComponents): ImageComponents {
  if (c.tag) return { ...c, tag: '' };
  return { ...c, digest: '' };
}
