package keys

import (
	"reflect"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
)

// A config file names the KeyMap's entries in snake_case (next_call for
// NextCall) and gives each its keys; the help shows the keys it gives.

// KeyNames are the KeyMap's entries by the names a config file uses, in
// the KeyMap's order.
func KeyNames() []string {
	t := reflect.TypeFor[KeyMap]()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		names = append(names, snake(t.Field(i).Name))
	}
	return names
}

// binding is entry name of k, nil for no such entry.
func (k *KeyMap) binding(name string) *key.Binding {
	v := reflect.ValueOf(k).Elem()
	for i := range v.NumField() {
		if snake(v.Type().Field(i).Name) == name {
			return v.Field(i).Addr().Interface().(*key.Binding)
		}
	}
	return nil
}

// KeysOf is entry name's keys; false for no such entry.
func (k *KeyMap) KeysOf(name string) ([]string, bool) {
	b := k.binding(name)
	if b == nil {
		return nil, false
	}
	return b.Keys(), true
}

// Bind gives entry name the keys given (bubbletea's names: "ctrl+f",
// "right", "x"), its help what it says with them; false for no such
// entry.
func (k *KeyMap) Bind(name string, keys []string) bool {
	b := k.binding(name)
	if b == nil {
		return false
	}
	*b = key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(keys, "/"), b.Help().Desc))
	return true
}

// snake is NextCall as next_call.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
