// Package deps holds the test that keeps the house's import rules (which
// package may import which): deps_test.go reads `go list -deps -json`
// and fails on a broken rule. A new rule is a row of its table.
package deps
