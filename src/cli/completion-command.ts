// `warren completion bash|zsh`: prints the script; see completion.ts.
import { COMMANDS } from './command-specs.ts';
import type { CommandInput } from './cli-io.ts';
import { bashCompletion, zshCompletion } from './completion.ts';

export function runCompletionCommand({ io, positionals }: CommandInput): Promise<number> {
  const shell = positionals[0];
  if (shell === 'bash') io.out(bashCompletion(COMMANDS));
  else if (shell === 'zsh') io.out(zshCompletion(COMMANDS));
  else throw new Error(shell ? `unsupported shell "${shell}": bash or zsh` : 'shell not specified: warren completion bash|zsh');
  return Promise.resolve(0);
}
