// Package rulesdoc holds the tests that keep docs/rules true to the code:
// every function, type and test a page names exists, every page a Go
// comment cites has the section cited, and no Go comment cites a file
// outside the repository.
package rulesdoc
