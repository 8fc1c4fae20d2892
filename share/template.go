package share

// The page is head, then css (the one style element's text, whose hash
// the policy names: it must reach the page byte for byte, so it is part
// of the template's own text, not a value put into it), then body.

const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{csp}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="inspect share">
<title>inspect: {{.Source}}</title>
<style>`

const css = `
:root { --bg: #fdfdfb; --fg: #1d1d1b; --dim: #6b6b66; --line: #d9d9d2; --box: #f3f3ee;
  --evicted: #c0392b; --pinned: #7d3c98; --anchor: #1f618d; --recent: #1e8449; --kept: #6b6b66;
  --notice: #b7950b; --new: #117a65; --folded: #ca6f1e; --summary: #a04000; --gone: #aaaaa4; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1b1c1e; --fg: #e6e6e1; --dim: #9a9a93; --line: #3a3b3e; --box: #26272a;
    --evicted: #ff6b5b; --pinned: #c39bd3; --anchor: #7fb3d5; --recent: #7dcea0; --kept: #9a9a93;
    --notice: #f4d03f; --new: #76d7c4; --folded: #f0b27a; --summary: #e59866; --gone: #66665f; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 110ch; padding: 1rem 1.5rem 4rem; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, sans-serif; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .3rem; }
.facts { color: var(--dim); margin: .2rem 0; padding-left: 1.2rem; }
.facts li { overflow-wrap: anywhere; }
.problems li { color: var(--evicted); overflow-wrap: anywhere; }
.timeline { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 1px; padding: .4rem; background: var(--box);
  border: 1px solid var(--line); }
.tick { display: block; flex: 1 1 4px; min-width: 2px; max-width: 24px; background: var(--recent); text-decoration: none;
  border-top: 3px solid transparent; border-bottom: 3px solid transparent; }
.tick.ev { border-top-color: var(--evicted); }
.tick.fl { border-bottom-color: var(--notice); }
.tick.df { outline: 1px solid var(--evicted); }
.tick.off { opacity: .35; }
.h0 { height: 4px; } .h1 { height: 7px; } .h2 { height: 10px; } .h3 { height: 13px; } .h4 { height: 16px; }
.h5 { height: 19px; } .h6 { height: 22px; } .h7 { height: 25px; } .h8 { height: 28px; }
.legend { color: var(--dim); font-size: .85rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; padding: .25rem .4rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { color: var(--dim); font-weight: 600; }
#values td:nth-child(1), #values td:nth-child(2), #values td:nth-child(4), #values th { white-space: nowrap; overflow-wrap: normal; }
#values td:nth-child(3) { min-width: 12ch; }
details.call { border: 1px solid var(--line); margin: .4rem 0; background: var(--bg); }
details.call > summary { cursor: pointer; padding: .35rem .6rem; background: var(--box); overflow-wrap: anywhere; }
details.call > summary .num { font-weight: 700; }
.callbody { padding: .3rem .8rem .8rem; }
.callfacts { color: var(--dim); margin: .2rem 0 .6rem; padding-left: 1.2rem; font-size: .9rem; }
.callfacts li { overflow-wrap: anywhere; }
.turn { border-left: 5px solid var(--kept); margin: .5rem 0; padding: .1rem 0 .1rem .6rem; }
.fate { display: inline-block; font-weight: 700; text-transform: uppercase; font-size: .8rem; letter-spacing: .04em; margin-right: .5rem; }
.reason { color: var(--dim); font-size: .9rem; overflow-wrap: anywhere; }
.fate-anchor { border-color: var(--anchor); } .fate-anchor .fate { color: var(--anchor); }
.fate-pinned { border-color: var(--pinned); } .fate-pinned .fate { color: var(--pinned); }
.fate-recent { border-color: var(--recent); } .fate-recent .fate { color: var(--recent); }
.fate-kept { border-color: var(--kept); } .fate-kept .fate { color: var(--kept); }
.fate-evicted { border-color: var(--evicted); background: color-mix(in srgb, var(--evicted) 7%, transparent); }
.fate-evicted .fate { color: var(--evicted); }
.fate-gone { border-color: var(--gone); } .fate-gone .fate { color: var(--gone); }
.fate-notice { border-color: var(--notice); } .fate-notice .fate { color: var(--notice); }
.fate-new { border-color: var(--new); } .fate-new .fate { color: var(--new); }
.fate-folded { border-color: var(--folded); } .fate-folded .fate { color: var(--folded); }
.fate-summary { border-color: var(--summary); } .fate-summary .fate { color: var(--summary); }
.msg { margin: .3rem 0; }
.mhead { font-size: .85rem; color: var(--dim); overflow-wrap: anywhere; }
.mhead .role { font-weight: 700; color: var(--fg); }
pre { margin: .2rem 0; padding: .4rem .6rem; background: var(--box); border: 1px solid var(--line);
  white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, monospace; max-height: 30rem; overflow: auto; }
pre.note { border-style: dashed; border-color: var(--notice); }
.notelabel { font-size: .8rem; color: var(--notice); }
.preview { color: var(--dim); font: 13px/1.4 ui-monospace, monospace; overflow-wrap: anywhere; }
.response { border-left: 5px solid var(--anchor); padding: .1rem 0 .1rem .6rem; margin-top: .8rem; }
.vals { margin-top: .6rem; }
.verdict { font-weight: 700; }
.v-left .verdict, .v-never-read .verdict { color: var(--evicted); }
.v-in-view-text .verdict { color: var(--notice); }
.v-summary-unsupported .verdict { color: var(--folded); }
code.value { font-weight: 700; overflow-wrap: anywhere; }
a { color: var(--anchor); }
footer { margin-top: 2rem; color: var(--dim); font-size: .85rem; }
`

const body = `</style>
</head>
<body>
<header>
<h1>inspect: <span id="source">{{.Source}}</span></h1>
<p id="shown"><span id="calls" data-calls="{{.Calls}}">{{.Calls}} model calls</span>{{with .Shown}} · {{.}}{{end}}</p>
<ul class="facts">{{range .Facts}}<li>{{.}}</li>{{end}}</ul>
</header>
{{with .Problems}}<h2>Problems ({{len .}})</h2>
<ul class="problems">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Timeline</h2>
<nav class="timeline" aria-label="calls">{{range .Timeline}}{{if .Shown}}<a href="#call-{{.Call}}"{{else}}<span{{end}} class="tick h{{.Height}}{{if .Evicted}} ev{{end}}{{if .Flagged}} fl{{end}}{{if .Differs}} df{{end}}{{if not .Shown}} off{{end}}" title="{{.Title}}">{{if .Shown}}</a>{{else}}</span>{{end}}{{end}}</nav>
<p class="legend">one bar a call, its height the window's size; red cap: something left the window at that call; yellow underline: the response holds a flagged value; red outline: the replayed window is not the one the library recorded.</p>
<h2>Flagged values ({{len .Values}})</h2>
{{if .Values}}<table id="values">
<thead><tr><th>call</th><th>in</th><th>value</th><th>verdict</th><th>why</th><th>what would have kept it</th></tr></thead>
<tbody>{{range .Values}}<tr class="{{verdict .Verdict}}" data-call="{{.Call}}" data-verdict="{{.Verdict}}"><td><a href="#call-{{.Call}}">{{.Call}}</a></td><td>{{.In}}</td><td><code class="value">{{.Typed}}</code></td><td class="verdict">{{.Verdict}}</td><td>{{.Explanation}}</td><td>{{.Keep}}</td></tr>
{{end}}</tbody></table>{{else if .Shown}}<p>none in the calls this page holds.</p>{{else}}<p>none: every number and identifier the answers typed was in view, typed by the user, or a library note.</p>{{end}}
<h2>Calls</h2>
{{range .Views}}<details class="call" id="call-{{.Number}}" data-call="{{.Number}}"{{if .Open}} open{{end}}>
<summary><span class="num">call {{.Number}}</span> · {{.Head}} · recorded window: <span class="recorded">{{.Recorded}}</span>{{with .Values}} · {{len .}} flagged{{end}}</summary>
<div class="callbody">
<ul class="callfacts">{{range .Facts}}<li>{{.}}</li>{{end}}</ul>
{{with .NoWindow}}<p>{{.}}</p>{{end}}{{if .Gone}}<p class="reason">{{.Gone}} earlier turn(s) left at calls before this one.</p>{{end}}
{{range .Turns}}<div class="turn {{fate .Fate}}" data-fate="{{.Fate}}"><span class="fate">{{.Fate}}</span> <span class="reason">{{.Reason}}</span>
{{range .Messages}}<div class="msg"{{if .Full}} id="{{.Anchor}}"{{end}}><div class="mhead"><span class="role">{{.Role}}</span>{{with .Tool}} <span class="tool">{{.}}</span>{{end}} · {{.Chars}} chars{{with .Ephemera}} · {{.}}{{end}}</div>
{{if .Full}}{{if .Own}}<pre class="own">{{.Own}}</pre>{{end}}{{with .Note}}<div class="notelabel">library note, after the tool's own bytes (not evidence)</div><pre class="note">{{.}}</pre>{{end}}{{range .Calls}}<div class="mhead">→ {{.Name}} {{.ID}}</div><pre class="args">{{.Args}}</pre>{{end}}{{else}}{{range .Calls}}<div class="mhead">→ {{.Name}} {{.ID}}</div>{{end}}<div class="preview">{{.Preview}} <a href="#{{.Anchor}}">full text at call {{.FirstAt}}</a></div>{{end}}
</div>{{end}}</div>
{{end}}<div class="response"><span class="fate">response</span>{{with .Response.Usage}} <span class="reason">{{.}}</span>{{end}}
{{with .Response.Content}}<pre class="answer">{{.}}</pre>{{end}}{{range .Response.Calls}}<div class="mhead">→ {{.Name}} {{.ID}}</div><pre class="args">{{.Args}}</pre>{{end}}{{with .Response.Outcome}}<p class="reason">{{.}}</p>{{end}}</div>
{{with .Values}}<div class="vals"><h3>flagged values</h3><ul>{{range .}}<li class="{{verdict .Verdict}}" data-verdict="{{.Verdict}}"><code class="value">{{.Typed}}</code> <span class="verdict">{{.Verdict}}</span>: {{.Explanation}}{{with .Keep}} — {{.}}{{end}}</li>{{end}}</ul></div>{{end}}
</div>
</details>
{{end}}<footer>written by inspect share; nothing on this page loads or runs anything.</footer>
</body>
</html>
`
