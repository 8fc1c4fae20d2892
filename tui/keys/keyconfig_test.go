package keys

import (
	"slices"
	"testing"
)

// The names a config file gives the keys: a contract, so listed here by
// hand (a new entry of KeyMap is a new name a user may bind).
var configNames = []string{"prev_call", "next_call", "first_call", "last_call", "goto_call",
	"next_evict", "prev_evict", "next_differ", "prev_differ", "next_run", "prev_run", "next_notice", "prev_notice",
	"search", "next_hit", "prev_hit", "up", "down", "expand", "hide_gone", "focus", "top", "bottom",
	"page_up", "page_down", "half_up", "half_down", "transcript", "pager", "editor", "copy", "mouse", "follow", "reload",
	"mark", "jump_mark",
	"recent_less", "recent_more", "pins_less", "pins_more", "toggle_pins", "toggle_anchor", "strategy",
	"threshold_less", "threshold_more", "reset", "knobs", "advisor", "calls", "turns",
	"response", "final_answer", "next_flagged", "prev_flagged", "apply_suggestion", "flagged_args",
	"help", "problems", "close", "quit", "picker", "recorded", "changed", "request", "confirm", "erase"}

func TestKeyNamesAndBind(t *testing.T) {
	if got := KeyNames(); !slices.Equal(got, configNames) {
		t.Fatalf("KeyNames() = %q\nwant %q", got, configNames)
	}
	for _, name := range configNames {
		k := DefaultKeyMap()
		if !k.Bind(name, []string{"ctrl+alt+z", "f9"}) {
			t.Fatalf("Bind(%q) found no entry", name)
		}
		if got, _ := k.KeysOf(name); !slices.Equal(got, []string{"ctrl+alt+z", "f9"}) {
			t.Errorf("%s: keys %q after Bind", name, got)
		}
		b := k.binding(name)
		if b.Help().Key != "ctrl+alt+z/f9" || b.Help().Desc == "" {
			t.Errorf("%s: help %+v", name, b.Help())
		}
	}
	k := DefaultKeyMap()
	if k.Bind("next_cal", []string{"x"}) {
		t.Error("Bind of no entry")
	}
}
