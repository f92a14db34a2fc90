// `warren completion bash|zsh`: a completion script made from the command table,
// so it offers exactly the commands, verbs and flags the parser accepts.
// zsh reads it through bashcompinit, as `kubectl completion zsh` once did:
// one script to keep true instead of two.
import type { CommandSpec } from './command-specs.ts';

function words(list: readonly string[]): string {
  return list.join(' ');
}

export function bashCompletion(commands: readonly CommandSpec[]): string {
  const cases = commands.map((c) => {
    const verbs = words((c.verbs ?? []).map((v) => v.name));
    const flags = words(c.flags.filter((f) => !f.hidden).flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]));
    return `    ${c.name}) verbs="${verbs}"; flags="${flags}" ;;`;
  });
  return `# bash completion for warren; load it with: source <(warren completion bash)
_warren() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local command="\${COMP_WORDS[1]}" verbs="" flags=""
  if [[ \${COMP_CWORD} -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${words([...commands.map((c) => c.name), 'help'])} --help --version" -- "$cur") )
    return
  fi
  case "$command" in
${cases.join('\n')}
  esac
  case "$prev" in
    --kubeconfig|--cluster-kubeconfig|--kubeconfig-out|--config|-f|--filename|--audit-log-path)
      COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    --data-dir|--tenants-dir|--out-dir)
      COMPREPLY=( $(compgen -d -- "$cur") ); return ;;
    -o|--output)
      COMPREPLY=( $(compgen -W "wide json yaml name text" -- "$cur") ); return ;;
  esac
  if [[ "$cur" == -* || -z "$verbs" || \${COMP_CWORD} -gt 2 ]]; then
    COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$verbs" -- "$cur") )
  fi
}
complete -o default -F _warren warren
`;
}

export function zshCompletion(commands: readonly CommandSpec[]): string {
  return `#compdef warren
# zsh completion for warren; load it with: source <(warren completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(commands).split('\n').filter((line) => !line.startsWith('# bash')).join('\n')}`;
}
