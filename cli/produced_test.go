package cli

import (
	"testing"

	"github.com/afinspect/inspect/model"
)

func TestProduced(t *testing.T) {
	for _, c := range []struct {
		r    model.Response
		want string
	}{
		{model.Response{Content: "Ruling out the zone.", ToolCalls: []model.ToolCall{{Name: "get_metrics", Args: []byte(`{"host":"web-9d4b27","window":"14:00-14:30Z"}`)}}}, "→ get_metrics(web-9d4b27, …)"},
		{model.Response{ToolCalls: []model.ToolCall{{Name: "list_hosts", Args: []byte(`{"service":"checkout"}`)}, {Name: "ping", Args: []byte(`{}`)}}}, "→ list_hosts(checkout), ping()"},
		{model.Response{Content: "héllo 😀"}, "answer 8 chars"}, // UTF-16 units
		{model.Response{}, "-"},
	} {
		if got := produced(&model.Call{Facts: model.CallFacts{Response: c.r}}); got != c.want {
			t.Errorf("produced = %q, want %q", got, c.want)
		}
	}
}
