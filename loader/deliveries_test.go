package loader

import (
	"fmt"
	"strings"
	"testing"
)

// deliveryLog is one run whose injection delivers the same reminder at
// iterations 2 and 3 (docs/rules/runs-and-conversations.md §10.6): call 3's window holds it
// twice, once from each delivery, each with its own injectedBy.
func deliveryLog() string {
	const (
		meta     = `"meta":{"runId":"r"}`
		reminder = "Reminder: ticket TCK-4411 is still open."
	)
	user := `{"role":"user","content":"Check the queue."}`
	call := func(n int) string {
		return fmt.Sprintf(`{"role":"assistant","content":"","toolCalls":[{"id":"c%d","name":"t","args":{}}]},{"role":"tool","content":"ok %d","toolCallId":"c%d"}`, n, n, n)
	}
	delivered := func(it int) string {
		return fmt.Sprintf(`{"role":"user","content":%q,"injectedBy":{"iteration":%d,"source":"steer"}}`, reminder, it)
	}
	injected := func(pos int, role, content, reason string) string {
		return fmt.Sprintf(`{"type":"agentfootprint.context.injected","payload":{"slot":"messages","asRole":%q,"rawContent":%q,"reason":%q,"position":%d},%s}`, role, content, reason, pos, meta)
	}
	llm := func(it, n int) string {
		return fmt.Sprintf(`{"type":"agentfootprint.stream.llm_start","payload":{"iteration":%d,"messagesCount":%d},%s}`, it, n, meta) + "\n" +
			fmt.Sprintf(`{"type":"agentfootprint.stream.llm_end","payload":{"content":"","usage":{"input":1,"output":1}},%s}`, meta)
	}
	end := func(window ...string) string {
		return fmt.Sprintf(`{"type":"agentfootprint.agent.iteration_end","payload":{"history":[%s]},%s}`, strings.Join(window, ","), meta)
	}
	history := func(n int) string { return fmt.Sprintf("conversation history [%d]", n) }
	lines := []string{
		fmt.Sprintf(`{"type":"agentfootprint.agent.turn_start","payload":{"userPrompt":"Check the queue."},%s}`, meta),
		injected(0, "user", "Check the queue.", history(0)),
		llm(1, 1),
		end(user, call(1)),
		injected(0, "user", "Check the queue.", history(0)),
		injected(1, "assistant", "", history(1)),
		injected(2, "tool", "ok 1", history(2)),
		injected(3, "user", reminder, "operator steer"),
		llm(2, 4),
		end(user, call(1), delivered(2), call(2)),
		injected(0, "user", "Check the queue.", history(0)),
		injected(1, "assistant", "", history(1)),
		injected(2, "tool", "ok 1", history(2)),
		injected(3, "user", reminder, history(3)),
		injected(4, "assistant", "", history(4)),
		injected(5, "tool", "ok 2", history(5)),
		injected(6, "user", reminder, "operator steer"),
		llm(3, 7),
		end(user, call(1), delivered(2), call(2), delivered(3), call(3)),
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestDeliveriesAreTheirOwnMessages: the same text delivered twice is two
// messages, each with the injectedBy of its own delivery, and a later
// window holds the first as the one delivered before.
func TestDeliveriesAreTheirOwnMessages(t *testing.T) {
	for _, w := range ways {
		rec, err := readWith([]byte(deliveryLog()), w.opts)
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		calls := rec.Runs[0].Calls
		if len(calls) != 3 {
			t.Fatalf("%s: %d calls, want 3", w.name, len(calls))
		}
		c2, c3 := calls[1], calls[2]
		if c2.Deliveries != 1 || c3.Deliveries != 1 || len(c3.Recorded) != 7 {
			t.Fatalf("%s: deliveries %d, %d; call 3 window %d messages", w.name, c2.Deliveries, c3.Deliveries, len(c3.Recorded))
		}
		first, again, second := c2.Recorded[3], c3.Recorded[3], c3.Recorded[6]
		if first.ID == second.ID {
			t.Errorf("%s: the deliveries of iterations 2 and 3 are one message (ID %d)", w.name, first.ID)
		}
		if !strings.Contains(first.InjectedBy, `"iteration":2`) || !strings.Contains(second.InjectedBy, `"iteration":3`) {
			t.Errorf("%s: injectedBy %s and %s, want iterations 2 and 3", w.name, first.InjectedBy, second.InjectedBy)
		}
		if again.Content != first.Content || again.InjectedBy != first.InjectedBy {
			t.Errorf("%s: call 3's earlier reminder is %q %s, want the delivery of iteration 2", w.name, again.Content, again.InjectedBy)
		}
	}
}
