# fish completion for inspect
#
# Load it with:  inspect completion fish | source
#
# The words on the command line are handed to `inspect __complete` as
# arguments, never through eval: `commandline -opc` gives them unescaped,
# and an unescaped file name such as 'bug-report$(touch x).jsonl' must
# stay a name, not become a command.

function __inspect_prepare_completions
    set -g __inspect_comp_results
    set -l args (commandline -opc)
    set -l cur (commandline -ct)
    set -l prog $args[1]
    set -l out (env INSPECT_ACTIVE_HELP=0 $prog __complete $args[2..-1] $cur 2>/dev/null)
    or return 1

    # the last line is ":DIRECTIVE", the ones before "candidate<TAB>description"
    set -l directive 0
    for i in (seq (count $out) -1 1)
        if string match -q -- ':*' $out[$i]
            set directive (string sub -s 2 -- $out[$i])
            if test $i -gt 1
                set out $out[1..(math $i - 1)]
            else
                set out
            end
            break
        end
    end
    string match -qr -- '^[0-9]+$' $directive; or set directive 0
    if test (math "bitand($directive, 1)") -ne 0
        return 1
    end
    for line in $out
        test -n "$line"; and set -a __inspect_comp_results $line
    end
    if test (count $__inspect_comp_results) -eq 0
        # no candidates: file names (fish's own completion) unless told not to
        test (math "bitand($directive, 4)") -ne 0
        return
    end
    return 0
end

complete -c inspect -e
complete -c inspect -n __inspect_prepare_completions -f -a '$__inspect_comp_results'
