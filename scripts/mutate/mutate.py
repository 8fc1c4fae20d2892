#!/usr/bin/env python3
"""mutate: held-out-like logs built from real recordings, without changing what the library sent.

Usage: scripts/mutate/mutate.py [--shared DIR] [--only NAME,...] [--seed N] OUT_DIR

Writes one folder per mutation into OUT_DIR (run.jsonl, wire.json, recording.json,
and README.txt for evidence recordings), ready for tools/check-fidelity and
tools/check-evidence. Every line of a mutation is a line of a real recording: only
its order changes, and where a shape needs it the meta.runId, the agent's id
(compositionPath 'Agent:<id>', run_configured.payload.agentId) are renamed, the
same way in run.jsonl, the envelopes and wire.json. Windows are never touched.

wire.json is recomputed from the sources' wire.json by the spec's rules, not from
inspect: `call` numbers by llm_start order in the new file (WINDOW-SEMANTICS §10.6),
`run` by first event of each runId (§10.2), `conversation` by first appearance of
each source conversation (§10.8; a source without `conversation` is one conversation,
or one per Sequence step), `policy` keyed by agentId when the agents differ.
The script asserts, for every call, that the recorded window in the new file
(context.injected slot 'messages' by position, §10.6) equals the wire's messages.

Shapes (WINDOW-SEMANTICS §10, EVIDENCE-SEMANTICS §3-§6):
  batch-*    two sinks on one path: each source's lines in batches of 3-20, alternating
  after-*    a different recording's runs between a run and its follow-up
  child-*    one recording's single run nested inside another's tool_start..tool_end,
             renamed agent 'child' (compositionPath ['Agent:child'])
  twin-*     two copies of one script, distinct runIds, interleaved A1 B1 A2 B2 (§10.7 tie)
  renamed-*  runIds renamed (order of names opposite to time), timestamps untouched
  mixed-*    a summarize-oldest agent batch-interleaved with a sliding-window one
  ev-*, ev2-* the evidence recordings nested, batched, split by another conversation;
             OUT/evidence/ holds copies whose wire policy is the judged agent's alone,
             for check-evidence's [what-if] (it reads one policy)

Running the judges (twins: --no-conversations, the §10.7 tie pairs {A1,B2} {B1,A2}):
  python3 ../shared/tools/check-fidelity --bin BIN OUT/*/      (not OUT/evidence)
  python3 ../shared/tools/check-evidence --bin BIN OUT/evidence/*/
  python3 scripts/mutate/invariance.py --bin BIN [--flags "..."] OUT/*/
Judge limits these shapes meet (not faults of inspect): check-fidelity [records]
takes a record of another agent at the same iteration for a resume's restored copy
(after-c07-c01, batch-c07-s06); its [conversations] relabels by run number first,
where §10.8 numbers by first event — they differ only when another run starts
between two steps of one Sequence (batch-c06b-c01).
"""
import json, os, random, re, sys

ENVELOPES_BY_END = os.environ.get("MUTATE_ENVELOPES") == "by-end"
SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared")


def runid_of(obj):
    rid = (obj.get("meta") or {}).get("runId")
    return None if rid in (None, "consumer-scope") else rid


def step_of(obj):
    meta = obj.get("meta") or {}
    cp, sp = meta.get("compositionPath") or [], meta.get("subflowPath") or []
    return sp[0] if (cp and not str(cp[-1]).startswith("Agent:") and sp) else ""


def split_array(text):
    """raw text of each element of a JSON array (or the one object)."""
    text = text.strip()
    if not text.startswith("["):
        return [text], False
    dec, out, i = json.JSONDecoder(), [], 1
    while True:
        while text[i] in " \n\r\t,":
            i += 1
        if text[i] == "]":
            return out, True
        _, j = dec.raw_decode(text, i)
        out.append(text[i:j])
        i = j


class Source:
    """One recording, its lines kept as the library wrote them."""

    def __init__(self, shared, name, tag):
        d = next(os.path.join(shared, p, name) for p in ("testdata", "testdata2")
                 if os.path.isdir(os.path.join(shared, p, name)))
        self.name, self.tag = name, tag
        self.lines = [l for l in open(os.path.join(d, "run.jsonl"), encoding="utf-8").read().split("\n") if l.strip()]
        self.wire = json.load(open(os.path.join(d, "wire.json"), encoding="utf-8"))
        self.envs, _ = split_array(open(os.path.join(d, "recording.json"), encoding="utf-8").read())
        rp = os.path.join(d, "README.txt")
        self.readme = open(rp, encoding="utf-8").read() if os.path.exists(rp) else ""
        self.runs = []
        for l in self.lines:
            r = runid_of(json.loads(l))
            if r and r not in self.runs:
                self.runs.append(r)
        for c in self.wire["calls"]:  # older wires name runs by number only
            c.setdefault("runId", self.runs[c["run"] - 1])
            c.setdefault("agentId", "agent")
            c["src"] = tag
            conv = c.get("conversation") or c.get("for") or 1
            c["conv"] = (tag, conv)
        for e in self.wire.get("evidence") or []:
            e["src"] = tag
        self.src_run_no = {r: i + 1 for i, r in enumerate(self.runs)}

    def agents(self):
        return sorted({c["agentId"] for c in self.wire["calls"]})

    def policy_of(self, agent):
        pol = self.wire["policy"]
        if self.wire.get("policyKeyedBy"):
            return pol[agent]
        return pol

    def _sub(self, old, new):
        self.lines = [l.replace(old, new) for l in self.lines]
        self.envs = [e.replace(old, new) for e in self.envs]

    def rename_run(self, old, new):
        self._sub(json.dumps(old), json.dumps(new))
        self.runs = [new if r == old else r for r in self.runs]
        self.src_run_no[new] = self.src_run_no.pop(old)
        for c in self.wire["calls"] + (self.wire.get("evidence") or []):
            if c.get("runId") == old:
                c["runId"] = new

    def rename_agent(self, old, new):
        self._sub(json.dumps("Agent:" + old), json.dumps("Agent:" + new))
        self._sub('"agentId":' + json.dumps(old), '"agentId":' + json.dumps(new))
        self._sub('"agentId": ' + json.dumps(old), '"agentId": ' + json.dumps(new))
        pol = {a: self.policy_of(a) for a in self.agents()}
        for c in self.wire["calls"]:
            if c["agentId"] == old:
                c["agentId"] = new
        pol[new] = pol.pop(old)
        self.wire["policy"], self.wire["policyKeyedBy"] = pol, "agentId"

    def only_runs(self, keep):
        """keep only these runs (a prefix of a conversation: later runs never happened)."""
        self.lines = [l for l in self.lines if runid_of(json.loads(l)) in keep]
        self.envs = [e for e in self.envs if json.loads(e)["run"]["runId"] in keep]
        self.wire["calls"] = [c for c in self.wire["calls"] if c["runId"] in keep]
        self.wire["evidence"] = [e for e in self.wire.get("evidence") or [] if e["runId"] in keep]
        self.runs = [r for r in self.runs if r in keep]

    def items(self, pred=None):
        return [(self, i) for i, l in enumerate(self.lines) if pred is None or pred(json.loads(l))]

    def run_span(self, run):
        idx = [i for i, l in enumerate(self.lines) if runid_of(json.loads(l)) == run]
        return idx[0], idx[-1]


def batches(streams, rng, lo=3, hi=20):
    """each stream in order, batch after batch, alternating between streams."""
    pos, out, k = [0] * len(streams), [], 0
    while any(p < len(s) for p, s in zip(pos, streams)):
        if pos[k] < len(streams[k]):
            n = rng.randint(lo, hi)
            out += streams[k][pos[k]:pos[k] + n]
            pos[k] += n
        k = (k + 1) % len(streams)
    return out


def recorded_windows(lines):
    """(runId, step, iteration, occurrence) -> [(role, content)] or None, per §10.6."""
    pending, occ, out = {}, {}, {}
    for l in lines:
        e = json.loads(l)
        t, p = e.get("type", ""), e.get("payload") or {}
        seg = (runid_of(e), step_of(e))
        if t.endswith("context.injected") and p.get("slot") == "messages":
            pending.setdefault(seg, []).append((p.get("position"), p.get("asRole"), p.get("rawContent")))
        elif t.endswith("stream.llm_start"):
            got = sorted(pending.pop(seg, []), key=lambda x: x[0])
            k = seg + (p.get("iteration"),)
            n = occ.get(k, 0)
            occ[k] = n + 1
            ok = [x[0] for x in got] == list(range(p.get("messagesCount", -1)))
            out[k + (n,)] = [(x[1], x[2]) for x in got] if ok else None
    return out


def call_order(lines):
    """[(runId, step, iteration, occurrence)] of every llm_start, in file order."""
    occ, out = {}, []
    for l in lines:
        e = json.loads(l)
        if e.get("type", "").endswith("stream.llm_start"):
            k = (runid_of(e), step_of(e), (e.get("payload") or {}).get("iteration"))
            n = occ.get(k, 0)
            occ[k] = n + 1
            out.append(k + (n,))
    return out


def wire_key(c):
    return (c["runId"], c.get("for") or "", c["iteration"])


def write(out_dir, name, items, sources, note):
    lines = [s.lines[i] for s, i in items]
    runs = []
    for l in lines:
        r = runid_of(json.loads(l))
        if r and r not in runs:
            runs.append(r)
    run_no = {r: i + 1 for i, r in enumerate(runs)}
    order = {k: n for n, k in enumerate(call_order(lines), 1)}
    windows = recorded_windows(lines)
    calls, occ, callmap = [], {}, {}
    for s in sources:
        for c in sorted(s.wire["calls"], key=lambda c: c["call"]):
            if c.get("iteration") is None:
                continue
            k = wire_key(c)
            n = occ.get(k, 0)
            occ[k] = n + 1
            ident = k + (n,)
            if ident not in order:
                sys.exit(f"{name}: call {ident} of {s.name} not in the new file")
            rec = windows.get(ident)
            if rec is not None and rec != [(m["role"], m["content"]) for m in c["messages"]]:
                sys.exit(f"{name}: the recorded window of {ident} differs from wire.json")
            callmap[(s.tag, c["call"])] = order[ident]
            calls.append(dict(c, call=order[ident], run=run_no[c["runId"]]))
    if len(calls) != len(order):
        sys.exit(f"{name}: {len(order)} llm_start lines, {len(calls)} wire calls")
    calls.sort(key=lambda c: c["call"])
    conv = {}
    for c in calls:
        c["conversation"] = conv.setdefault(c["conv"], len(conv) + 1)
    agents = {}
    for s in sources:
        for a in s.agents():
            agents.setdefault(a, s.policy_of(a))
    keyed = len(agents) > 1 or any(s.wire.get("policyKeyedBy") for s in sources)
    if not keyed and len({json.dumps(s.wire["policy"], sort_keys=True) for s in sources}) > 1:
        sys.exit(f"{name}: one agent key with two policies; rename one")
    wire = {"scenario": note, "library": sources[0].wire.get("library"),
            "mutation": {"of": [s.name for s in sources], "shape": note,
                         # (source index, its call number) -> call number here; its runs likewise
                         "calls": [[[s.tag for s in sources].index(t), old, new] for (t, old), new in sorted(callmap.items())],
                         "runs": [[i, s.src_run_no[r], run_no[r]] for i, s in enumerate(sources) for r in s.runs if r in run_no]},
            "policy": agents if keyed else sources[0].wire["policy"],
            "calls": [{k: v for k, v in c.items() if k not in ("src", "conv")} for c in calls]}
    if keyed:
        wire["policyKeyedBy"] = "agentId"
    evidence = []
    for s in sources:
        for e in s.wire.get("evidence") or []:
            evidence.append(dict({k: v for k, v in e.items() if k != "src"}, call=callmap[(s.tag, e["call"])]))
    if evidence:
        wire["evidence"] = sorted(evidence, key=lambda e: e["call"])
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, "wire.json"), "w", encoding="utf-8") as f:
        json.dump(wire, f, ensure_ascii=False, indent=1)
    envs = sorted((e for s in sources for e in s.envs), key=lambda e: run_no.get(json.loads(e)["run"]["runId"], 1e9))
    if ENVELOPES_BY_END:  # the order runs ended in: a nested child before its parent
        last = {runid_of(json.loads(l)): i for i, l in enumerate(lines)}
        envs.sort(key=lambda e: last.get(json.loads(e)["run"]["runId"], 1e9))
    with open(os.path.join(d, "recording.json"), "w", encoding="utf-8") as f:
        f.write("[" + ",".join(envs) + "]")
    readme = "".join(renumber_readme(s, callmap, run_no) for s in sources if s.wire.get("evidence"))
    if readme:
        with open(os.path.join(d, "README.txt"), "w", encoding="utf-8") as f:
            f.write(readme)
        # check-evidence's [what-if] reads a plain policy: a copy with the judged agent's
        ev = next(s for s in sources if s.wire.get("evidence"))
        e = os.path.join(out_dir, "evidence", name)
        os.makedirs(e, exist_ok=True)
        for f in ("run.jsonl", "README.txt"):
            with open(os.path.join(d, f), encoding="utf-8") as src, open(os.path.join(e, f), "w", encoding="utf-8") as dst:
                dst.write(src.read())
        with open(os.path.join(e, "wire.json"), "w", encoding="utf-8") as f:
            json.dump(dict(wire, policy=ev.policy_of(ev.agents()[0])), f, ensure_ascii=False, indent=1)


def renumber_readme(s, callmap, run_no):
    """the evidence README's verdict lines with the new call and run numbers."""
    def call(n):
        return str(callmap[(s.tag, int(n))])

    def run(n):
        return str(run_no[s.runs[int(n) - 1]])

    out, keep = [], False
    for line in s.readme.split("\n"):
        head = re.match(r"^- call (\d+)", line)
        if head:
            keep = (s.tag, int(head[1])) in callmap  # a block of a run left out goes with it
        if not keep or not re.match(r"^(- call \d+|\s+\S+ \([a-z-]+\))", line):
            continue
        line = re.sub(r"^- call (\d+) \(run (\d+)", lambda m: f"- call {call(m[1])} (run {run(m[2])}", line)
        line = re.sub(r"\(run (\d+)\)", lambda m: f"(run {run(m[1])})", line)
        line = re.sub(r"call\(s\) ([0-9][0-9\u2013, ]*[0-9])",
                      lambda m: "call(s) " + re.sub(r"\d+", lambda k: call(k[0]), m[1]), line)
        out.append(line + "\n")
    return "".join(out)


def by_agent(agent):
    return lambda e: (e.get("meta") or {}).get("compositionPath") == ["Agent:" + agent]


def runs_in_tool_calls(parent, child, at):
    """parent's lines with child's runs, one after another, each put whole
    right after the parent's n-th tool_start for n in at (a child instance
    reused across tool calls: its follow-ups nested in later ones)."""
    items, n, k = [], 0, 0
    for it in parent.items():
        items.append(it)
        e = json.loads(parent.lines[it[1]])
        if e.get("type", "").endswith("stream.tool_start"):
            n += 1
            if n in at and k < len(child.runs):
                lo, hi = child.run_span(child.runs[k])
                items += [(child, i) for i in range(lo, hi + 1)]
                k += 1
    return items


def nest(parent, child, parent_run, nth_tool):
    """the child's lines right after the parent's nth tool_start of parent_run."""
    items, n = [], 0
    for it in parent.items():
        items.append(it)
        e = json.loads(parent.lines[it[1]])
        if runid_of(e) == parent_run and e.get("type", "").endswith("stream.tool_start"):
            n += 1
            if n == nth_tool:
                items += child.items()
    if n < nth_tool:
        sys.exit(f"{parent.name} run {parent_run} has only {n} tool calls")
    return items


def after_run(a, k, b):
    """a's lines up to its run k, then all of b, then the rest of a."""
    _, last = a.run_span(a.runs[k])
    items = a.items()
    return items[:last + 1] + b.items() + items[last + 1:]


def fresh_ids(src, prefix):
    for i, r in enumerate(list(src.runs)):
        src.rename_run(r, f"run-{prefix}-{i + 1}")


def shapes(shared, rng):
    S = lambda name, tag: Source(shared, name, tag)  # noqa: E731

    def m_batch(a_name, b_name, rename_b=None):
        a, b = S(a_name, "a"), S(b_name, "b")
        if rename_b:
            b.rename_agent("agent", rename_b)
        return batches([a.items(), b.items()], rng), [a, b]

    yield "batch-c01-c09", *m_batch("c01-two-conversations", "c09-token-budget-followups", "billing"), "batch c01+c09"
    yield "batch-demo-s05", *m_batch("demo-incident", "s05-multi-turn"), "batch demo-incident+s05"
    c = S("c02-interleaved-agents", "a")
    yield "batch-c02", batches([c.items(by_agent("oncall")), c.items(by_agent("billing"))], rng), [c], "c02's agents in batches"
    yield "batch-c07-s06", *m_batch("c07-paused-tool", "s06-tiny-results", "tiny"), "batch c07 (pauses)+s06"
    yield "batch-c06b-c01", *m_batch("c06b-composition-sequence", "c01-two-conversations"), "batch sequence+c01"

    a, b = S("s05-multi-turn", "a"), S("s01-basic-loop", "b")
    yield "after-s05-s01", after_run(a, 0, b), [a, b], "s05 run 1, all of s01, s05 runs 2-3"
    a, b = S("c09-token-budget-followups", "a"), S("c01-two-conversations", "b")
    b.rename_agent("agent", "support")
    yield "after-c09-c01", after_run(a, 1, b), [a, b], "c09 runs 1-2, all of c01, c09 run 3"
    a, b = S("c04-summarize-multi", "a"), S("s05-multi-turn", "b")
    b.rename_agent("agent", "support")
    yield "after-c04-s05", after_run(a, 0, b), [a, b], "c04 run 1, all of s05, c04 runs 2-3"
    a, b = S("s05-multi-turn", "a"), S("s05-multi-turn", "b")
    fresh_ids(b, "1796000744999")
    yield "after-s05-s05", after_run(a, 0, b), [a, b], "s05 run 1, a second s05 whole, s05 runs 2-3"

    for parent, child, nth in (("demo-incident", "s01-basic-loop", 3), ("c09-token-budget-followups", "s09-token-budget", 2),
                               ("s05-multi-turn", "s10-summarize", 1), ("c01-two-conversations", "c09-token-budget-followups", 4),
                               ("c04-summarize-multi", "s01-basic-loop", 2)):
        p, ch = S(parent, "a"), S(child, "b")
        ch.only_runs({ch.runs[0]})
        ch.rename_agent("agent", "child")
        fresh_ids(ch, "1796000000001")
        yield f"child-{parent.split('-')[0]}-{child.split('-')[0]}", nest(p, ch, p.runs[0], nth), [p, ch], f"{child} run 1 as agent-as-tool child in {parent}"

    for name in ("s05-multi-turn", "c09-token-budget-followups", "c04-summarize-multi", "demo-incident"):
        a, b = S(name, "a"), S(name, "b")
        fresh_ids(b, "1796000744998")
        spans = [(a, a.run_span(r)) for r in a.runs] + [(b, b.run_span(r)) for r in b.runs]
        items = []
        for k in range(len(a.runs)):
            for src in (a, b):
                lo, hi = src.run_span(src.runs[k])
                items += [(src, i) for i in range(lo, hi + 1)]
        del spans
        yield f"twin-{name.split('-')[0]}", items, [a, b], f"two copies of {name} interleaved run by run (tie)"

    for name in ("c07-paused-tool", "c09-token-budget-followups", "c01-two-conversations"):
        a = S(name, "a")
        n = len(a.runs)
        for i, r in enumerate(list(a.runs)):
            a.rename_run(r, f"run-1796999999999-{n - i}x")
        yield f"renamed-{name.split('-')[0]}", a.items(), [a], f"{name} with runIds renamed"

    # a child instance reused: its follow-ups nested in later tool calls of the parent
    p, ch = S("demo-incident", "a"), S("s05-multi-turn", "b")
    ch.rename_agent("agent", "child")
    items = runs_in_tool_calls(p, ch, (2, 5, 9))
    yield "child-followups", items, [p, ch], "s05's three runs as one child instance, each nested in a tool call of demo-incident"
    # a child with the default id, like its parent: one agent key, two conversations
    p, ch = S("demo-incident", "a"), S("s01-basic-loop", "b")
    fresh_ids(ch, "1796000000002")
    yield "child-samekey", nest(p, ch, p.runs[0], 4), [p, ch], "s01 as an agent-as-tool child with the default id 'agent', inside demo-incident"
    p, ch = S("demo-incident", "a"), S("s05-multi-turn", "b")
    items = runs_in_tool_calls(p, ch, (3, 6, 13))
    yield "child-samekey-followups", items, [p, ch], "s05's runs as a child with the default id nested in demo-incident's tool calls (its follow-up across the parent's follow-up)"
    # a grandchild: a child agent's own tool runs another agent
    p, ch, g = S("demo-incident", "a"), S("s01-basic-loop", "b"), S("s09-token-budget", "c")
    ch.rename_agent("agent", "child")
    g.rename_agent("agent", "grandchild")
    fresh_ids(ch, "1796000000004")
    fresh_ids(g, "1796000000005")
    inner = nest(ch, g, ch.runs[0], 2)
    items = []
    for it in p.items():
        items.append(it)
        if len([x for x in items if x[0] is p and p.lines[x[1]].find('"agentfootprint.stream.tool_start"') >= 0]) == 3 and len(items) and it[0] is p and p.lines[it[1]].find('"agentfootprint.stream.tool_start"') >= 0:
            items += inner
    yield "child-grandchild", items, [p, ch, g], "s09 nested in s01's tool, s01 nested in demo-incident's tool"
    # a child inside one of several parallel tool calls
    p, ch = S("s04-parallel-batch", "a"), S("s06-tiny-results", "b")
    ch.rename_agent("agent", "child")
    ch.only_runs({ch.runs[0]})
    fresh_ids(ch, "1796000000006")
    yield "child-parallel", nest(p, ch, p.runs[0], 2), [p, ch], "s06 run 1 nested in the second of s04's parallel tool calls"
    # one shared sink: lines one by one
    a, b = S("c01-two-conversations", "a"), S("c09-token-budget-followups", "b")
    b.rename_agent("agent", "billing")
    yield "shared-c01-c09", batches([a.items(), b.items()], rng, 1, 1), [a, b], "c01+c09 line by line (one shared sink)"
    a, b = S("demo-incident", "a"), S("s05-multi-turn", "b")
    yield "shared-demo-s05", batches([a.items(), b.items()], rng, 1, 2), [a, b], "demo-incident+s05, one agent key, lines 1-2 at a time"
    for name in ("s05-multi-turn", "c07-paused-tool", "c04-summarize-multi"):
        a, b = S(name, "a"), S(name, "b")
        fresh_ids(b, "1796000744997")
        yield f"twinbatch-{name.split('-')[0]}", batches([a.items(), b.items()], rng), [a, b], f"two copies of {name} in batches"
    a, b = S("c07-paused-tool", "a"), S("c01-two-conversations", "b")
    b.rename_agent("agent", "support")
    yield "after-c07-c01", after_run(a, 0, b), [a, b], "c07 paused run 1, all of c01, then its resumes"
    yield "mixed-c04-c01", *m_batch("c04-summarize-multi", "c01-two-conversations", "support"), "summarize c04 + sliding c01, batches"
    yield "mixed-c04-s10", *m_batch("c04-summarize-multi", "s10-summarize", "digest"), "two summarize-oldest agents (thresholds 1000 and 2800), batches"
    p, ch = S("c04-summarize-multi", "a"), S("s10-summarize", "b")
    ch.rename_agent("agent", "child")
    fresh_ids(ch, "1796000000003")
    yield "child-c04-s10", nest(p, ch, p.runs[1], 2), [p, ch], "s10 (summarize) as a child inside c04's follow-up"
    yield "mixed-s10-s09", *m_batch("s10-summarize", "s09-token-budget", "budget"), "summarize s10 + token-budget s09, batches"


def evidence_shapes(shared, rng, base):
    """the evidence recordings, each variant mutated the same way (so [what-if] can pair them)."""
    S = lambda name, tag: Source(shared, name, tag)  # noqa: E731
    for v in (base, base + "-k3-pins3") if base == "demo-evidence" else (base,):
        suffix = v[len(base):]
        a, b = S(v, "a"), S("s01-basic-loop", "b")
        b.rename_agent("agent", "support")
        if len(a.runs) > 1:
            yield f"ev-after-{base}{suffix}", after_run(a, 0, b), [a, b], f"{v} run 1, s01, then its follow-up"
        a, p = S(v, "b"), S("s05-multi-turn", "a")
        a.rename_agent("agent", "child")
        a.only_runs({a.runs[0]})
        yield f"ev-child-{base}{suffix}", nest(p, a, p.runs[0], 1), [p, a], f"{v} run 1 nested as a child of s05"
        a, b = S(v, "a"), S("c09-token-budget-followups", "b")
        b.rename_agent("agent", "billing")
        r = random.Random(7)
        yield f"ev-batch-{base}{suffix}", batches([a.items(), b.items()], r), [a, b], f"{v} and c09 in batches"
        a, b = S(v, "a"), S("s05-multi-turn", "b")
        b.rename_agent("agent", "support")
        yield f"ev-parent-{base}{suffix}", nest(a, b, a.runs[0], 2), [a, b], f"s05 run 1 nested as a child inside {v}"


def two_evidence_agents(shared, rng):
    """two agents with the answer check, their lines in batches and one nested in the other."""
    a, b = Source(shared, "demo-evidence", "a"), Source(shared, "e03-tokens", "b")
    b.rename_agent("agent", "storage")
    yield "ev2-batch", batches([a.items(), b.items()], rng), [a, b], "demo-evidence and e03 (as storage) in batches"
    a, b = Source(shared, "demo-evidence", "a"), Source(shared, "e03-tokens", "b")
    b.rename_agent("agent", "storage")
    yield "ev2-child", nest(a, b, a.runs[1], 1), [a, b], "e03 (as storage) nested in demo-evidence's follow-up"


def main(argv):
    shared, only, out, seed = SHARED, None, None, 20261130
    it = iter(argv)
    for x in it:
        if x == "--shared":
            shared = next(it)
        elif x == "--only":
            only = set(next(it).split(","))
        elif x == "--seed":
            seed = int(next(it))
        else:
            out = x
    if not out:
        print(__doc__)
        return 2
    rng = random.Random(seed)
    gens = list(shapes(shared, rng))
    for base in ("demo-evidence", "e03-tokens"):
        gens += list(evidence_shapes(shared, rng, base))
    gens += list(two_evidence_agents(shared, rng))
    for name, items, sources, note in gens:
        if only and name not in only:
            continue
        write(out, name, items, sources, note)
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
