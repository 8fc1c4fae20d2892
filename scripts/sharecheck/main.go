// Command sharecheck opens pages `inspect share` wrote in a real browser
// (headless Chromium) and checks what a person would see and what the
// page does:
//
//   - the demo (demo-evidence): the head says 16 model calls and the
//     timeline draws 16 bars; call 7's window is closed until its summary
//     is clicked, then shows one evicted turn, the list_hosts result
//     (list_hosts call_0001); call 13, opened, shows web-3e6f14 as
//     never-read. A script added to a copy of the page (its hash added to
//     the policy) clicks and reads, as a person would, only what is
//     rendered (checkVisibility, innerText);
//   - demo-evidence with markup in the request, the results, the answer,
//     the strategy and the names (internal/hostile.Markup), every URL in
//     it pointing at a listener this program runs: the page makes no
//     request and runs nothing of it; and, so that the check can fail,
//     the same markup in a bare page does make requests and run, and
//     spliced raw into the share page is held by the page's policy alone.
//
// Usage: go run ./scripts/sharecheck -chromium PATH [-out DIR]
// (scripts/share-browser-check finds the browser). It exits 1 when a
// check fails. A CI helper, not a user command.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/afinspect/inspect/internal/hostile"
)

var failed bool

func fail(format string, args ...any) {
	failed = true
	fmt.Printf("FAIL "+format+"\n", args...)
}

func ok(format string, args ...any) { fmt.Printf("ok   "+format+"\n", args...) }

func main() {
	chromium := flag.String("chromium", "chromium", "the browser")
	out := flag.String("out", "", "folder to keep the pages and a screenshot in (default: a temporary one)")
	flag.Parse()
	dir := *out
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "sharecheck"); err != nil {
			die(err)
		}
		defer os.RemoveAll(dir)
	}
	bin := filepath.Join(dir, "inspect")
	run("go", "build", "-o", bin, ".")
	b := browser{path: *chromium, profile: filepath.Join(dir, "profile")}

	demo := "testdata/demo-evidence/run.jsonl"
	page := filepath.Join(dir, "demo.html")
	run(bin, "share", "-q", demo, "-o", page)
	checkDemo(b, page, filepath.Join(dir, "demo-seen.html"))
	b.screenshot(page, filepath.Join(dir, "demo.png"))

	srv := newListener()
	defer srv.close()
	payload := hostile.Markup(srv.url)
	raw, err := os.ReadFile(demo)
	if err != nil {
		die(err)
	}
	evil := filepath.Join(dir, "markup.jsonl")
	if err := os.WriteFile(evil, hostile.MarkupDemo(raw, payload), 0o644); err != nil {
		die(err)
	}
	evilPage := filepath.Join(dir, "markup.html")
	run(bin, "share", "-q", evil, "-o", evilPage)
	checkHostile(b, srv, evilPage, payload, dir)
	if failed {
		os.Exit(1)
	}
	fmt.Println("sharecheck: every check passed")
}

// checkDemo adds the reading script to a copy of page and checks what it
// read.
func checkDemo(b browser, page, seen string) {
	src, err := os.ReadFile(page)
	if err != nil {
		die(err)
	}
	copyWithScript(src, seen, readScript)
	dom := b.dom(seen)
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		die(err)
	}
	pre := find(doc, func(n *html.Node) bool { return attrOf(n, "id") == "seen" })
	if pre == nil {
		fail("demo: the reading script wrote nothing (did it run?)")
		return
	}
	var f struct {
		Calls    string   `json:"calls"`
		Ticks    int      `json:"ticks"`
		Closed7  bool     `json:"closed7"`
		Evicted7 []string `json:"evicted7"`
		Never13  []string `json:"never13"`
		Table    []string `json:"table"`
	}
	if err := json.Unmarshal([]byte(text(pre)), &f); err != nil {
		die(err)
	}
	check("demo: the head says 16 model calls", f.Calls == "16 model calls", "demo: the head reads %q (want \"16 model calls\")", f.Calls)
	check("demo: the timeline draws 16 bars", f.Ticks == 16, "demo: the timeline draws %d bars (want 16)", f.Ticks)
	check("demo: call 7 is closed until clicked", !f.Closed7, "demo: call 7's turns are seen before it is opened: %v", f.Closed7)
	check("demo: call 7 shows its evicted turn, list_hosts call_0001", len(f.Evicted7) == 1 && strings.HasPrefix(f.Evicted7[0], "EVICTED") && strings.Contains(f.Evicted7[0], "tool list_hosts call_0001"),
		"demo: call 7, opened, shows evicted turns %q (want one: the list_hosts call_0001 turn)", f.Evicted7)
	check("demo: call 13 shows web-3e6f14 never-read", len(f.Never13) == 1 && strings.HasPrefix(f.Never13[0], "web-3e6f14 never-read"),
		"demo: call 13, opened, shows never-read %q (want web-3e6f14)", f.Never13)
	// call 16 names web-3e6f14 only to refute it ("… not web-3e6f14"):
	// the library lists it, inspect does not flag it (§10.2 rule 7)
	check("demo: the values table shows web-3e6f14 never-read at call 13 alone", len(f.Table) == 1 && strings.HasPrefix(f.Table[0], "13") && strings.Contains(f.Table[0], "web-3e6f14"),
		"demo: the flagged values' table shows never-read rows %q (want web-3e6f14 at call 13 alone: call 16 refutes it)", f.Table)
}

// readScript reads the page as a person would: only what is rendered,
// the summaries of calls 7 and 13 clicked.
const readScript = `(() => {
const seen = e => e.checkVisibility();
const f = {};
f.calls = document.getElementById('calls').innerText;
f.ticks = [...document.querySelectorAll('.tick')].filter(seen).length;
f.closed7 = [...document.querySelectorAll('#call-7 .turn')].some(seen);
document.querySelector('#call-7 > summary').click();
f.evicted7 = [...document.querySelectorAll('#call-7 .turn')].filter(seen).filter(e => e.dataset.fate === 'evicted').map(e => e.innerText);
document.querySelector('#call-13 > summary').click();
f.never13 = [...document.querySelectorAll('#call-13 li')].filter(seen).filter(e => e.dataset.verdict === 'never-read').map(e => e.innerText);
f.table = [...document.querySelectorAll('#values tr')].filter(seen).filter(e => e.dataset.verdict === 'never-read').map(e => e.innerText.replace(/\s+/g, ' '));
const pre = document.createElement('pre');
pre.id = 'seen';
pre.textContent = JSON.stringify(f);
document.body.append(pre);
})();`

// copyWithScript writes page with script at the end of its body and the
// script's hash in its policy.
func copyWithScript(page []byte, to, script string) {
	sum := sha256.Sum256([]byte(script))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	s := string(page)
	const policy = `content="default-src &#39;none&#39;;`
	if !strings.Contains(s, policy) {
		die(fmt.Errorf("the page has no policy starting %s", policy))
	}
	s = strings.Replace(s, policy, policy+" script-src "+hash+";", 1)
	s = strings.Replace(s, "</body>", "<script>"+script+"</script></body>", 1)
	if err := os.WriteFile(to, []byte(s), 0o644); err != nil {
		die(err)
	}
}

// checkHostile loads the hostile page, and the two controls.
func checkHostile(b browser, srv *listener, page, payload, dir string) {
	dom := b.dom(page)
	hits := srv.take()
	check("hostile: the page makes no request", len(hits) == 0, "hostile: the page made %d request(s): %v", len(hits), hits)
	check("hostile: no script of the recording runs", !strings.Contains(htmlAttr(dom), "data-pwn3d"), "hostile: a script of the recording ran (data-pwn3d on <html>)")
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		die(err)
	}
	for _, tag := range []string{"script", "img", "iframe", "object", "embed", "link", "svg", "base"} {
		if n := find(doc, func(n *html.Node) bool { return n.Data == tag }); n != nil {
			fail("hostile: a <%s> element in the loaded page", tag)
		} else {
			ok("hostile: no <%s> element in the loaded page", tag)
		}
	}
	check("hostile: the markup is on the page as text", strings.Contains(text(doc), `<script class="pwn3d">`), "hostile: the markup is not on the page as text")

	// A meta refresh navigates the page away, whatever its policy (a
	// content security policy does not govern navigation): only escaping
	// keeps it out, which the hostile page above shows. The controls leave
	// it out, so that what they load stays the page.
	payload = refresh.ReplaceAllString(payload, "")
	bare := filepath.Join(dir, "control-bare.html")
	write(bare, "<!DOCTYPE html><html><head><meta charset=utf-8><title>control</title></head><body><pre>"+payload+"</pre></body></html>")
	dom = b.dom(bare)
	hits = srv.take()
	check("control: the markup in a bare page requests and runs (the check sees an attack)", len(hits) > 0 && strings.Contains(htmlAttr(dom), "data-pwn3d"),
		"control: the markup in a bare page made %d request(s) and ran a script: %v (the check could not see an attack)", len(hits), strings.Contains(htmlAttr(dom), "data-pwn3d"))

	src, err := os.ReadFile(page)
	if err != nil {
		die(err)
	}
	spliced := filepath.Join(dir, "control-policy.html")
	write(spliced, strings.Replace(string(src), "<h2>Timeline</h2>", payload+"<h2>Timeline</h2>", 1))
	dom = b.dom(spliced)
	hits = srv.take()
	check("control: the markup spliced raw into the share page is held by its policy", len(hits) == 0 && !strings.Contains(htmlAttr(dom), "data-pwn3d"),
		"control: the markup spliced raw into the share page made %d request(s) %v or ran (the policy did not hold)", len(hits), hits)
}

var refresh = regexp.MustCompile(`<meta http-equiv="refresh"[^>]*>`)

// htmlAttr is the <html ...> start tag of a serialized DOM.
func htmlAttr(dom string) string {
	i := strings.Index(dom, "<html")
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(dom[i:], '>')
	return dom[i : i+j+1]
}

// check says what was checked, and on a failure what was seen.
func check(what string, cond bool, format string, args ...any) {
	if cond {
		ok("%s", what)
		return
	}
	fail("%s: %s", what, fmt.Sprintf(format, args...))
}

// browser runs headless Chromium.
type browser struct{ path, profile string }

func (b browser) args(extra ...string) []string {
	return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
		"--user-data-dir=" + b.profile, "--virtual-time-budget=3000"}, extra...)
}

// dom is the page's DOM once loaded, serialized.
func (b browser) dom(page string) string {
	var out, errb bytes.Buffer
	cmd := exec.Command(b.path, b.args("--dump-dom", "file://"+abs(page))...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := runTimeout(cmd, 90*time.Second); err != nil {
		die(fmt.Errorf("%s --dump-dom %s: %v\n%s", b.path, page, err, errb.String()))
	}
	return out.String()
}

func (b browser) screenshot(page, png string) {
	cmd := exec.Command(b.path, b.args("--window-size=1280,1600", "--screenshot="+png, "file://"+abs(page))...)
	if err := runTimeout(cmd, 90*time.Second); err != nil {
		fail("screenshot of %s: %v", page, err)
	}
}

func runTimeout(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		return fmt.Errorf("no answer in %s", d)
	}
}

// listener counts the requests that reach it.
type listener struct {
	url  string
	srv  *http.Server
	mu   sync.Mutex
	hits []string
}

func newListener() *listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		die(err)
	}
	l := &listener{url: "http://" + ln.Addr().String()}
	l.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.hits = append(l.hits, r.URL.Path)
		l.mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
	})}
	go l.srv.Serve(ln)
	return l
}

// take is the requests since the last take.
func (l *listener) take() []string {
	time.Sleep(300 * time.Millisecond) // a request the browser sent as it quit
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.hits
	l.hits = nil
	return h
}

func (l *listener) close() { l.srv.Close() }

func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// run runs a command, saying what it wrote on stderr only if it fails
// (the hostile log's problems quote its markup).
func run(name string, args ...string) {
	var errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		die(fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String()))
	}
}

func write(path, s string) {
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		die(err)
	}
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		die(err)
	}
	return a
}

func die(err error) {
	fmt.Fprintln(os.Stderr, "sharecheck:", err)
	os.Exit(1)
}
