// Command splitlines reads a file as the cheapest line reader would, in
// blocks of 4 MB through read(2), finding each line end with
// bytes.IndexByte, and prints the number of lines. It is the limit the
// loader is timed against from outside (/usr/bin/time on it and on
// `inspect report -q`, the same file); loader.BenchmarkLoad1GB does the
// same inside one benchmark. A benchmark helper, not a user command.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: splitlines FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "splitlines:", err)
		os.Exit(1)
	}
	defer f.Close()
	buf := make([]byte, 4<<20)
	lines, open := 0, false
	for {
		k, err := f.Read(buf)
		data := buf[:k]
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				open = true
				break
			}
			lines, open = lines+1, false
			data = data[i+1:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "splitlines:", err)
			os.Exit(1)
		}
	}
	if open {
		lines++
	}
	fmt.Println(lines)
}
