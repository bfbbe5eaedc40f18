// Package format defines the compact file that holds the embedded copy of
// CLINC150 (clinc150/data/clinc150.json.gz): gzip-compressed JSON written by
// Encode, read by Decode. Package clinc150 reads it; the generator in
// clinc150/internal/gen writes it from the original data_full.json and
// domains.json.
//
// The JSON has the form
//
//	{"source": "...", "license": "...",
//	 "domains": {"banking": ["freeze_account", ...], ...},
//	 "splits": {"train": [{"intent": "translate", "texts": ["...", ...]}, ...],
//	            "val": [...], "test": [...],
//	            "oos_train": [...], "oos_val": [...], "oos_test": [...]}}
//
// where each split lists its queries in the original order, consecutive
// queries of one intent grouped together.
package format

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/greedytl/greedytl/internal/jsonfile"
)

// File is the decoded content of the embedded data file.
type File struct {
	Source  string              `json:"source"`
	License string              `json:"license"`
	Domains map[string][]string `json:"domains"`
	Splits  map[string][]Group  `json:"splits"`
}

// Group is a run of consecutive queries of one intent.
type Group struct {
	Intent string   `json:"intent"`
	Texts  []string `json:"texts"`
}

// Encode writes f as compact JSON, gzip-compressed at the best compression
// level with an empty header (no name, no time), so that the output depends
// only on f and the Go version.
func Encode(w io.Writer, f *File) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	return zw.Close()
}

// Decode reads a file written by Encode.
func Decode(data []byte) (*File, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("clinc150 data: %w", err)
	}
	raw, err := io.ReadAll(zr) // reading to the end checks the CRC
	if err != nil {
		return nil, fmt.Errorf("clinc150 data: %w", err)
	}
	var f File
	if err := jsonfile.Decode(raw, &f, "JSON object"); err != nil {
		return nil, fmt.Errorf("clinc150 data: %w", err)
	}
	return &f, nil
}
