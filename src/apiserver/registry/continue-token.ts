// The embedded apiserver's continue positions: the snapshot revision and the store key
// to resume after, in kube-apiserver's token form (core/continue-token.ts, the one codec).
// Clients treat them as opaque.
import { decodeContinueToken, encodeContinueToken } from '../../core/continue-token.ts';

export { CONTINUE_EXPIRED_MESSAGE } from '../../core/continue-token.ts';

export interface ContinuePosition {
  revision: number;
  after: string;
}

export function encodeContinue(position: ContinuePosition): string {
  return encodeContinueToken({ rv: position.revision, start: position.after });
}

export function decodeContinue(token: string): ContinuePosition {
  const { rv, start } = decodeContinueToken(token);
  return { revision: rv, after: start };
}
