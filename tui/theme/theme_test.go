package theme

import "testing"

func TestCOLORFGBG(t *testing.T) {
	for _, c := range []struct {
		v        string
		dark, ok bool
	}{
		{"15;0", true, true}, {"0;15", false, true}, {"0;default;15", false, true},
		{"7;8", true, true}, {"0;7", false, true}, {"", false, false}, {"15;default", false, false}, {"1;99", false, false},
	} {
		if dark, ok := darkFromCOLORFGBG(c.v); dark != c.dark || ok != c.ok {
			t.Errorf("COLORFGBG=%q: dark %v ok %v, want %v %v", c.v, dark, ok, c.dark, c.ok)
		}
	}
	if ApplyTheme("sepia", "") == nil {
		t.Error("an unknown theme is accepted")
	}
}
