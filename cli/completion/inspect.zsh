#compdef inspect
# zsh completion for inspect
#
# Load it with:  source <(inspect completion zsh)   (after compinit)
# or put it in a directory of $fpath as _inspect.
#
# The words on the command line are handed to `inspect __complete` as
# arguments, never through eval: ${(Q)…} removes the quoting the user
# typed without expanding anything, so a file name such as
# 'bug-report$(touch x).jsonl' stays a name.

_inspect() {
    local -a args lines comps
    local prog out line directive=0 comp desc i
    prog=${(Q)words[1]}
    [[ $prog == '~/'* ]] && prog=$HOME/${prog#\~/}
    args=("${(@Q)words[2,CURRENT]}")
    out=$(INSPECT_ACTIVE_HELP=0 command "$prog" __complete "${args[@]}" 2>/dev/null) || return 1

    # the last line is ":DIRECTIVE", the ones before "candidate<TAB>description"
    lines=("${(@f)out}")
    for ((i = ${#lines}; i >= 1; i--)); do
        if [[ ${lines[i]} == :* ]]; then
            directive=${lines[i]#:}
            lines=("${(@)lines[1,i-1]}")
            break
        fi
    done
    [[ $directive == <-> ]] || directive=0
    (( directive & 1 )) && return 1 # an error

    for line in "${lines[@]}"; do
        [[ -n $line ]] || continue
        comp=${line%%$'\t'*}
        desc=
        [[ $line == *$'\t'* ]] && desc=${line#*$'\t'}
        comp=${comp//:/\\:} # _describe splits candidate from description at ":"
        if [[ -n $desc ]]; then comps+=("$comp:$desc"); else comps+=("$comp"); fi
    done

    local -a nospace
    (( directive & 2 )) && nospace=(-S '')
    if (( ${#comps} > 0 )); then
        _describe -t inspect 'inspect' comps "${nospace[@]}" && return 0
    fi
    (( directive & 4 )) && return 1
    if (( directive & 16 )); then _path_files -/; else _files; fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _inspect "$@"
else
    compdef _inspect inspect
fi
