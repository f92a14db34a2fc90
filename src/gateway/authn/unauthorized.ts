// The two refusals authentication can give. kube-apiserver answers every failed
// authentication with the bare message "Unauthorized", whatever went wrong: the
// detail goes to the log (the `why`), never to the client, so a caller cannot
// probe which tenants exist or which check it tripped.
import { ApiError } from '../../core/api-error.ts';

export class AuthenticationError extends ApiError {
  /** For the log only. */
  readonly why: string;

  constructor(why: string) {
    super('Unauthorized', 'Unauthorized');
    this.why = why;
  }
}

export function unauthorized(why: string): AuthenticationError {
  return new AuthenticationError(why);
}
