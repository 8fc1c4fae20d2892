package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaser is the part of goreleaser's configuration (version 2) that
// .goreleaser.yaml uses; a key it does not know fails the decode.
type goreleaser struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Before      struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		ID              string   `yaml:"id"`
		IDs             []string `yaml:"ids"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		NameTemplate string `yaml:"name_template"`
		Files        []file `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
	Snapshot struct {
		VersionTemplate string `yaml:"version_template"`
	} `yaml:"snapshot"`
	Changelog struct {
		Sort string `yaml:"sort"`
	} `yaml:"changelog"`
}

// file is an archive's file: a glob, or {src, dst, strip_parent}.
type file struct {
	Src         string `yaml:"src"`
	Dst         string `yaml:"dst"`
	StripParent bool   `yaml:"strip_parent"`
}

func (f *file) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		f.Src = n.Value
		return nil
	}
	type plain file
	return n.Decode((*plain)(f))
}

// The release configuration builds this repository's binary the way the
// binary expects: the version it links in is the variable --version
// reads, each platform is one Go knows, the hooks run commands that
// exist, the archives hold files that do.
func TestGoreleaserConfig(t *testing.T) {
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaser
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if c.Version != 2 || c.ProjectName != "inspect" {
		t.Errorf("version %d, project %q", c.Version, c.ProjectName)
	}
	dist, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	platforms := strings.Fields(string(dist))
	main, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Builds) != 1 {
		t.Fatalf("%d builds", len(c.Builds))
	}
	bd := c.Builds[0]
	if bd.Main != "." || bd.Binary != "inspect" {
		t.Errorf("build main %q binary %q", bd.Main, bd.Binary)
	}
	ld := strings.Join(bd.Ldflags, " ")
	m := regexp.MustCompile(`-X main\.(\w+)=\{\{ \.Version \}\}`).FindStringSubmatch(ld)
	if m == nil || !regexp.MustCompile(`(?m)^var `+m[1]+` string$`).Match(main) {
		t.Errorf("ldflags %q do not set main.go's version variable", ld)
	}
	if !slices.Contains(bd.Env, "CGO_ENABLED=0") || !slices.Contains(bd.Flags, "-trimpath") {
		t.Errorf("build env %v flags %v: want a static, path-free build", bd.Env, bd.Flags)
	}
	for _, os := range bd.Goos {
		for _, arch := range bd.Goarch {
			if !slices.Contains(platforms, os+"/"+arch) {
				t.Errorf("%s/%s is no platform of go tool dist list", os, arch)
			}
		}
	}
	for _, h := range c.Before.Hooks {
		if f := strings.Fields(h); len(f) < 2 || f[0] != "go" {
			t.Errorf("hook %q is not a go command", h)
		}
	}
	if !slices.Contains(c.Before.Hooks, "go run . man -d build/man") {
		t.Error("no hook writes the manual pages the archives hold")
	}
	formats := []string{"tar.gz", "zip", "tar.xz", "tar", "gz", "binary"}
	for _, a := range c.Archives {
		for _, id := range a.IDs {
			if id != bd.ID {
				t.Errorf("archive %s names build %q", a.ID, id)
			}
		}
		for _, f := range a.Formats {
			if !slices.Contains(formats, f) {
				t.Errorf("archive format %q", f)
			}
		}
		for _, o := range a.FormatOverrides {
			if !slices.Contains(bd.Goos, o.Goos) {
				t.Errorf("override for %q, which is not built", o.Goos)
			}
		}
		for _, f := range a.Files {
			if f.Src == "build/man/*.1" {
				continue // written by the hook
			}
			if m, _ := filepath.Glob(f.Src); len(m) == 0 {
				t.Errorf("archive file %q matches nothing", f.Src)
			}
		}
	}
}
