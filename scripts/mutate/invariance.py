#!/usr/bin/env python3
"""invariance: a mutation must not change what inspect says about any call.

Usage: scripts/mutate/invariance.py [--bin PATH] [--shared DIR] [--flags "..."] MUTATION_DIR...

For each folder written by mutate.py, exports the mutation and each of its
source recordings (inferred policy, or --flags for all), and compares every
call of a source with the same call in the mutation (wire.json `mutation.calls`
maps the numbers): window, evicted, turns (fate, reason, pinTool, notice), record,
recordedWindow, response, and evidence (every value's verdict and sources, with
the call and run numbers of sentOn, evictedAt and run mapped). A difference is a
fault of the replay or of the evidence, not of the checkers: the library sent the
same windows. Prints one line per folder and `N passed, M failed`.

Copies of one recording in one file (twin-*, twinbatch-*) cannot be told apart by
what they sent: WINDOW-SEMANTICS §10.7's tie rule may pair A2 with B1 (interleaved
A1 B1 A2 B2 gives {A1, B2} {B1, A2}), and then A2's sources are B1's messages, as
EVIDENCE-SEMANTICS §6 wants (its own run chain). So a source's numbers are mapped
back through whichever copy of the same recording holds them, and, for every
mutation, every source must be of a run in the call's own conversation.
"""
import json, os, shlex, subprocess, sys

SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared")
_cache = {}


def export(bin_path, path, flags):
    key = (path, tuple(flags))
    if key not in _cache:
        p = subprocess.run([bin_path, "export", "--format", "json", "-q", *flags, path],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"export {path} exited {p.returncode}: {p.stderr[:300]}")
        _cache[key] = {c["call"]: c for c in json.loads(p.stdout)["calls"]}
    return _cache[key]


def source_dir(shared, name):
    return next(os.path.join(shared, d, name) for d in ("testdata", "testdata2")
                if os.path.isdir(os.path.join(shared, d, name)))


def view(c, calls, runs):
    """the call as inspect described it, with this file's call and run numbers mapped."""
    def src(s):
        s = dict(s)
        if s.get("run") is not None:
            s["run"] = runs.get(s["run"], ("?", s["run"]))
        if s.get("sentOn"):
            s["sentOn"] = [calls.get(n, ("?", n)) for n in s["sentOn"]]
        if s.get("evictedAt") is not None:
            s["evictedAt"] = calls.get(s["evictedAt"], ("?", s["evictedAt"]))
        return s
    ev = dict(c.get("evidence") or {})
    ev["values"] = [dict(v, sources=[src(s) for s in v.get("sources") or []]) for v in ev.get("values") or []]
    return {k: c.get(k) for k in ("iteration", "window", "evicted", "turns", "record", "recordedWindow", "response")} | {"evidence": ev}


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return f"{path}: {json.dumps(a)[:160]} vs {json.dumps(b)[:160]}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: {'absent' if k not in a else 'present'} in the source, {'absent' if k not in b else 'present'} in the mutation"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {json.dumps(a)[:160]} vs {json.dumps(b)[:160]}"


def check(bin_path, shared, d, flags):
    wire = json.load(open(os.path.join(d, "wire.json"), encoding="utf-8"))
    mut = wire["mutation"]
    got = export(bin_path, os.path.join(d, "run.jsonl"), flags)
    conv_of_run = {c["run"]: c.get("conversation") for c in got.values()}
    for i, name in enumerate(mut["of"]):
        orig = export(bin_path, os.path.join(source_dir(shared, name), "run.jsonl"), flags)
        copies = {s for s, n in enumerate(mut["of"]) if n == name}  # this one, and its twin
        calls = {old: ("#", old) for s, old, new in mut["calls"] if s == i}
        runs = {old: ("#", old) for s, old, new in mut["runs"] if s == i}
        back_calls = {new: ("#", old) for s, old, new in mut["calls"] if s in copies}
        back_runs = {new: ("#", old) for s, old, new in mut["runs"] if s in copies}
        for old, new in sorted((o, n) for s, o, n in mut["calls"] if s == i):
            a = view(orig[old], calls, runs)
            b = view(got[new], back_calls, back_runs)
            diff = first_diff(a, b)
            if diff:
                return False, f"{name} call {old} (here call {new}): {diff}"
            for v in (got[new].get("evidence") or {}).get("values") or []:
                for s in v.get("sources") or []:
                    if conv_of_run.get(s.get("run")) != got[new].get("conversation"):
                        return False, (f"{name} call {old} (here call {new}): {v.get('value')} has a source in run "
                                       f"{s.get('run')}, not of the call's conversation {got[new].get('conversation')}")
    return True, f"{len(mut['calls'])} calls described as in their recordings"


def main(argv):
    bin_path, shared, flags, dirs = "inspect", SHARED, [], []
    it = iter(argv)
    for a in it:
        if a == "--bin":
            bin_path = next(it)
        elif a == "--shared":
            shared = next(it)
        elif a == "--flags":
            flags = shlex.split(next(it))
        else:
            dirs.append(a)
    if not dirs:
        print(__doc__)
        return 2
    passed = failed = 0
    for d in dirs:
        name = os.path.basename(os.path.normpath(d))
        try:
            ok, msg = check(bin_path, shared, d, flags)
        except Exception as e:  # noqa: BLE001
            ok, msg = False, str(e)
        print(f"{'ok  ' if ok else 'FAIL'} {name} {msg}")
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
