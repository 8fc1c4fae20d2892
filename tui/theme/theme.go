// Package theme is the inspector's one style sheet and its light or
// dark side: every colour named once by what it means. It draws nothing
// and knows no screen.
package theme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Themes --theme accepts.
const (
	ThemeAuto  = "auto"
	ThemeDark  = "dark"
	ThemeLight = "light"
)

// ApplyTheme chooses the light or the dark side of every adaptive colour
// in the style sheet: as named, or for "auto" from COLORFGBG (colorfgbg
// is its value) when the terminal sets it, else from what lipgloss learns
// from the terminal. It must run before the program starts.
func ApplyTheme(name, colorfgbg string) error {
	switch name {
	case ThemeDark:
		lipgloss.SetHasDarkBackground(true)
	case ThemeLight:
		lipgloss.SetHasDarkBackground(false)
	case ThemeAuto, "":
		if dark, ok := darkFromCOLORFGBG(colorfgbg); ok {
			lipgloss.SetHasDarkBackground(dark)
		}
	default:
		return fmt.Errorf("unknown --theme %q (auto, dark or light)", name)
	}
	return nil
}

// darkFromCOLORFGBG reads the background colour of COLORFGBG ("15;0",
// "0;default;15"): the last field, an ANSI colour number. 0–6 and 8 are
// dark backgrounds, 7 and 9–15 light (rxvt's reading); false when it
// does not say.
func darkFromCOLORFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	f := strings.Split(v, ";")
	bg, err := strconv.Atoi(f[len(f)-1])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg <= 6 || bg == 8, true
}
