package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

func typed(s string) []string { return strings.Split(s, "") }

// web-1c94d2 is in five messages of the demo (wire.json). At call 10,
// enter goes to the first hit still in the conversation there: the
// fourth, an assistant text sent on calls 6–12.
func TestGoldenSearchHitInView(t *testing.T) {
	cfg := fileConfig(demoLog)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		keys(":", "1", "0", "enter"),
		step{keys: append(append([]string{"/"}, typed("web-1c94d2")...), "enter"), wait: "hit 4 of 5"}))
}

// N three times from there: the first hit, the list_hosts result, which
// the library sent on calls 2–7 and which is gone at call 10.
func TestGoldenSearchHitGone(t *testing.T) {
	cfg := fileConfig(demoLog)
	cfg.Name = "demo"
	teatest.RequireEqualOutput(t, screen(t, cfg, goldenW, goldenH, "call 1/16",
		keys(":", "1", "0", "enter"),
		step{keys: append(append([]string{"/"}, typed("web-1c94d2")...), "enter"), wait: "hit 4 of 5"},
		step{keys: []string{"N", "N", "N"}, wait: "hit 1 of 5"}))
}
