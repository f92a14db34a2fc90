// The objects the suites write: ConfigMaps whose JSON body is about a given size.
export function configMap(namespace: string, name: string, payloadBytes: number, seed = 0): string {
  // Filler that does not compress into one repeated byte, so TLS and JSON see realistic text.
  const filler = `${name}-${seed}-`.repeat(Math.ceil(payloadBytes / (name.length + 4))).slice(0, payloadBytes);
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench', shard: String(seed % 8) } },
    data: { payload: filler },
  });
}

export function namespaceBody(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export const cmPath = (namespace: string, name?: string): string =>
  `/api/v1/namespaces/${namespace}/configmaps${name === undefined ? '' : `/${name}`}`;
