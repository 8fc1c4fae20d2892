# bash completion for inspect
#
# Load it with:  source <(inspect completion bash)
#
# The words on the command line are handed to `inspect __complete` as
# arguments, never through eval: a file name such as
# 'bug-report$(touch x).jsonl' stays a name. The candidates are matched
# against the current word by plain string comparison (compgen -W would
# expand them), and file names are left to bash's own completion.

# __inspect_dequote removes one level of quoting (backslashes, '…', "…")
# from $1 into REPLY without expanding anything in it.
__inspect_dequote() {
    local w=$1 out='' q='' c i
    for ((i = 0; i < ${#w}; i++)); do
        c=${w:i:1}
        if [[ $q == "'" ]]; then
            if [[ $c == "'" ]]; then q=''; else out+=$c; fi
        elif [[ $c == '\' ]]; then
            i=$((i + 1))
            out+=${w:i:1}
        elif [[ $c == '"' ]]; then
            if [[ $q == '"' ]]; then q=''; else q='"'; fi
        elif [[ $c == "'" && -z $q ]]; then
            q="'"
        else
            out+=$c
        fi
    done
    REPLY=$out
}

__inspect_complete() {
    # bash splits --flag=value at the "="; the words are joined back so
    # inspect sees the command line as typed
    local -a words=()
    local i w cword=-1 joined=0
    for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        if ((${#words[@]} > 1)) && [[ $w == '=' || $joined == 1 ]]; then
            words[${#words[@]} - 1]+=$w
            if [[ $w == '=' ]]; then joined=1; else joined=0; fi
        else
            words+=("$w")
            joined=0
        fi
    done
    cword=$((${#words[@]} - 1))
    ((cword >= 1)) || return 0
    local cur=${words[cword]} raw=${COMP_WORDS[COMP_CWORD]}
    local prefix=${cur%"$raw"} # what bash will not replace

    local -a args=()
    local prog
    __inspect_dequote "${words[0]}"
    prog=$REPLY
    if [[ $prog == '~/'* ]]; then prog=$HOME/${prog:2}; fi
    for ((i = 1; i < cword; i++)); do
        __inspect_dequote "${words[i]}"
        args+=("$REPLY")
    done
    __inspect_dequote "$cur"
    local arg=$REPLY

    local out
    out=$(INSPECT_ACTIVE_HELP=0 command "$prog" __complete "${args[@]}" "$arg" 2>/dev/null) || return 0

    # the last line is ":DIRECTIVE", the ones before "candidate<TAB>description"
    local -a lines=()
    local line directive=0
    while IFS='' read -r line; do lines+=("$line"); done <<<"$out"
    for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
        line=${lines[i]}
        if [[ $line == :* ]]; then
            directive=${line:1}
            lines=("${lines[@]:0:i}")
            break
        fi
    done
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    if ((directive & 1)); then return 0; fi # an error

    COMPREPLY=()
    local comp
    for line in "${lines[@]}"; do
        comp=${line%%$'\t'*}
        [[ -n $comp && $comp == "$arg"* && $comp == "$prefix"* ]] || continue
        COMPREPLY+=("$(printf '%q' "${comp#"$prefix"}")")
    done
    if ((directive & 2)); then compopt -o nospace 2>/dev/null; fi
    if ((${#COMPREPLY[@]} == 0)) && ! ((directive & 4)); then
        # file names: bash's own completion, which quotes what it inserts
        compopt -o default 2>/dev/null
        if ((directive & 16)); then compopt -o dirnames 2>/dev/null; fi
    else
        compopt +o default 2>/dev/null
    fi
    return 0
}

complete -o default -F __inspect_complete inspect
