package evidence

import (
	"strings"
	"testing"
)

// The numbers below the library's floor that carry a unit, on answers
// the recordings hold (demo-evidence call 13, n06-parallel-composition
// call 11, a01-vet-clinic call 5) and on the shapes that are no reading.
func TestBelowFloor(t *testing.T) {
	for text, want := range map[string]string{
		// demo call 13: 504s (a tail), 905/702/871 ms; 3,940 and 4,812 are the library's; 0.19% and 7.1% have no unit;
		// "from 32 to 8 connections" is a range whose end has no unit; 8/8 a ratio
		"p99 3,940 ms against a fleet p99 of 905 ms, 7.1% errors, and the tax-svc pool at 8/8 with requests queued. " +
			"the pool (cut from 32 to 8 connections in the same deploy) saturated, and checkout requests failed with PoolTimeoutError / 504s. " +
			"The warmup succeeded this time (4,812 rates in 702 ms); p99 is back to 871 ms at 1,822 requests/min, with 0.19% errors.": "905 504 702 871",
		// n06 call 11: a list shares the unit of its last number
		"Metrics: web-6a8afa p99 3899 ms, 7.3% errors; other canaries 809 and 992 ms; baselines 807 and 882 ms.": "809 992 807 882",
		// a01 call 5: a decimal's digits count, as the library counts them
		"Do not start meloxicam (FRM-MLX-015) for Mab (VP-20931, 18.4 kg)": "18.4",
		"a range: 800 to 900 ms; a list: 640, 702ms":                       "800 900 640 702",
		"3 hosts, 24/7 on call, 12 of them, 45 for the day, 7 ms":          "",
		"-12 dB and +45 dB; 99 is the last":                                "-12 45",
	} {
		var got []string
		for _, v := range BelowFloor(text) {
			if v.Shape != ShapeNumber {
				t.Errorf("%s: shape %s", v.Value, v.Shape)
			}
			got = append(got, v.Value)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("BelowFloor(%q) = %q, want %q", text, strings.Join(got, " "), want)
		}
	}
}

// What the table shows of such a number: the piece as typed.
func TestFloorTyped(t *testing.T) {
	typed := FloorTyped("failed with PoolTimeoutError / 504s. p99 of 905 ms, 18.4 kg.")
	for v, want := range map[string]string{"504": "504s", "905": "905", "18.4": "18.4"} {
		if typed[v] != want {
			t.Errorf("FloorTyped[%s] = %q, want %q", v, typed[v], want)
		}
	}
}

// The looked_for of an absence frame at the top level or as a coverage
// ledger's result (§3's shapes), as JSON text; nothing for a frame
// nested deeper, one whose checked list is empty, or no frame.
func TestLookedFor(t *testing.T) {
	frame := `{"af_absent":true,"outcome":"nothing_found","looked_for":"a FLOGI login of 21:00:00:24:ff:4a:12:31","checked":[{"what":"mds-fra2-a01"}]}`
	for content, want := range map[string]string{
		frame: `"a FLOGI login of 21:00:00:24:ff:4a:12:31"`,
		`{"af_coverage":{"scanned":3},"result":` + frame + `}`:         `"a FLOGI login of 21:00:00:24:ff:4a:12:31"`,
		`{"af_absent":true,"looked_for":{"wwpn":"x"},"checked":["a"]}`: `{"wwpn":"x"}`,
		`[` + frame + `]`: "",
		`{"af_absent":true,"looked_for":"y","checked":[]}`: "",
		`{"looked_for":"y","checked":["a"]}`:               "",
		`af_absent looked_for, as text`:                    "",
	} {
		got, ok := LookedFor(content)
		if got != want || ok != (want != "") {
			t.Errorf("LookedFor(%s) = %q %v, want %q", content, got, ok, want)
		}
	}
}
