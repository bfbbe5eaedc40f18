// Command gen writes the embedded copy of CLINC150 (clinc150/data/clinc150.json.gz)
// from the original files of the clinc/oos-eval repository:
//
//	go run ./clinc150/internal/gen -src ../shared/data/clinc150 -out clinc150/data/clinc150.json.gz
//
// (or `go generate ./clinc150`). It reads data_full.json and domains.json,
// checks their structure, groups each split's consecutive queries by intent
// and writes the result with format.Encode. The output depends only on the
// input files and the Go version's gzip compressor.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/greedytl/greedytl/clinc150/internal/format"
	"github.com/greedytl/greedytl/internal/atomicfile"
)

const (
	source  = "https://github.com/clinc/oos-eval (data/data_full.json, data/domains.json)"
	license = "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/). Attribution: S. Larson et al., " +
		"\"An Evaluation Dataset for Intent Classification and Out-of-Scope Prediction\", EMNLP-IJCNLP 2019. " +
		"Re-encoded (grouped by intent, gzip-compressed) by greedytl; the queries are unchanged."
)

// splits are the keys of data_full.json.
var splits = []string{"train", "val", "test", "oos_train", "oos_val", "oos_test"}

func main() {
	src := flag.String("src", "", "folder holding data_full.json and domains.json")
	out := flag.String("out", "", "output file (gzip-compressed JSON)")
	flag.Parse()
	if *src == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -src DIR -out FILE")
		os.Exit(2)
	}
	f, err := build(*src)
	if err == nil {
		err = atomicfile.Write(*out, func(w io.Writer) error { return format.Encode(w, f) })
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// build reads and checks the original files in dir and returns their
// compact form.
func build(dir string) (*format.File, error) {
	f := &format.File{Source: source, License: license, Splits: make(map[string][]format.Group)}
	domPath := filepath.Join(dir, "domains.json")
	if err := readJSON(domPath, &f.Domains); err != nil {
		return nil, err
	}
	known := make(map[string]bool)
	for _, intents := range f.Domains {
		for _, in := range intents {
			if in == "" || in == "oos" || known[in] {
				return nil, fmt.Errorf("%s: bad or repeated intent %q", domPath, in)
			}
			known[in] = true
		}
	}
	fullPath := filepath.Join(dir, "data_full.json")
	var full map[string][][]string
	if err := readJSON(fullPath, &full); err != nil {
		return nil, err
	}
	if len(full) != len(splits) {
		return nil, fmt.Errorf("%s: %d splits, want %d (%v)", fullPath, len(full), len(splits), splits)
	}
	for _, split := range splits {
		pairs, ok := full[split]
		if !ok || len(pairs) == 0 {
			return nil, fmt.Errorf("%s: split %q missing or empty", fullPath, split)
		}
		var groups []format.Group
		for i, p := range pairs {
			if len(p) != 2 || p[0] == "" {
				return nil, fmt.Errorf("%s: %s[%d] is not a [text, intent] pair", fullPath, split, i)
			}
			text, intent := p[0], p[1]
			if isOOS := split[:3] == "oos"; isOOS != (intent == "oos") || !isOOS && !known[intent] {
				return nil, fmt.Errorf("%s: %s[%d] has intent %q", fullPath, split, i, intent)
			}
			if n := len(groups); n > 0 && groups[n-1].Intent == intent {
				groups[n-1].Texts = append(groups[n-1].Texts, text)
			} else {
				groups = append(groups, format.Group{Intent: intent, Texts: []string{text}})
			}
		}
		f.Splits[split] = groups
	}
	return f, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
