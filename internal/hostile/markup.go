package hostile

import (
	"bytes"
	"strings"
)

// MarkupMark is in every element and attribute Markup writes (as a class,
// an id, a data- attribute or a path), so that a page that let one
// through can be told by it.
const MarkupMark = "pwn3d"

// Markup is an attack on a web page that shows a recording: elements that
// run script, load from url or restyle the page, attributes that break
// out of a quoted or an unquoted value, a comment and a CDATA opener, the
// closing tags of the elements a text may sit in. url is where a request
// that leaves the page would go ("" for a harmless host); every path
// under it ends in MarkupMark.
func Markup(url string) string {
	if url == "" {
		url = "http://127.0.0.1:9"
	}
	u := url + "/" + MarkupMark
	return strings.Join([]string{
		`</pre></div></details></td></tr></table></title></style></textarea>`,
		`<script class="pwn3d">document.documentElement.setAttribute('data-pwn3d','script');fetch('` + u + `-fetch')</script>`,
		`<img class="pwn3d" src="` + u + `-img" onerror="document.documentElement.setAttribute('data-pwn3d','onerror')">`,
		`<link rel="stylesheet" href="` + u + `-css"><style>@import url(` + u + `-import); body{background:url(` + u + `-bg)}</style>`,
		`<iframe id="pwn3d" src="` + u + `-frame"></iframe><object data="` + u + `-object"></object><embed src="` + u + `-embed">`,
		`<meta http-equiv="refresh" content="0;url=` + u + `-refresh"><base href="` + u + `-base/">`,
		`<svg><image href="` + u + `-svg"/><script>document.documentElement.setAttribute('data-pwn3d','svg')</script></svg>`,
		`<a href="javascript:document.documentElement.setAttribute('data-pwn3d','link')" data-pwn3d="1">click</a>`,
		`" data-pwn3d="quote' data-pwn3d='apos ` + "`" + ` onmouseover=alert(1) x=`,
		`<!-- pwn3d --><![CDATA[ pwn3d ]]>`,
		`{{.Source}} ${pwn3d} &lt;b&gt;entity&amp;`,
	}, "")
}

// MarkupAfter returns run with payload, as a JSON string's text, after
// every occurrence of each word (a word of the prompt, the tool results
// or the answer), and after every JSON string that is exactly one of
// names (a run id, a tool name, a tool-call id, an agent id).
func MarkupAfter(run []byte, payload string, words, names []string) []byte {
	esc := escaped(payload)
	for _, n := range names {
		run = bytes.ReplaceAll(run, []byte(`"`+n+`"`), []byte(`"`+n+esc+`"`))
	}
	for _, w := range words {
		run = bytes.ReplaceAll(run, []byte(w), []byte(w+esc))
	}
	return run
}

// MarkupDemo is demo-evidence with payload in the request, a tool result
// and the final answer ("INC-20931", "web-7f3a2c"), the strategy name, the
// run id, the agent id and the tools and tool-call ids whose values left
// the window before call 13 (list_hosts call_0001, get_metrics call_0004).
func MarkupDemo(run []byte, payload string) []byte {
	run = bytes.ReplaceAll(run, []byte(`"window":"sliding-window"`), []byte(`"window":"sliding-window`+escaped(payload)+`"`))
	run = bytes.ReplaceAll(run, []byte(`"agentId":"agent"`), []byte(`"agentId":"agent`+escaped(payload)+`"`))
	return MarkupAfter(run, payload, []string{"INC-20931", "web-7f3a2c"},
		[]string{"run-1796030442753-1", "list_hosts", "call_0001", "get_metrics", "call_0004"})
}
