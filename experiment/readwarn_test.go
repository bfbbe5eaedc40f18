package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLackingRunJSONWarnedOnce: two results files of one directory without
// run.json, given as two inputs that each read a new file, are warned of
// once — the directory's run.json is not found once — where each input
// added the warning (twice, word for word).
func TestLackingRunJSONWarnedOnce(t *testing.T) {
	_, data := allNegRun(t)
	lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) < 2 {
		t.Fatalf("%d records; want two or more", len(lines))
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "results-a.jsonl"), filepath.Join(dir, "results-b.jsonl")
	writeText(t, a, string(bytes.Join(lines[:1], nil)))
	writeText(t, b, string(bytes.Join(lines[1:], nil))+"\n")
	want := filepath.Join(dir, ManifestFile) + ": not found"
	for _, paths := range [][]string{{a, b}, {b, a}, {a, dir}, {dir, a}} {
		res, err := ReadRuns(paths, ReadOptions{Tolerant: true})
		if err != nil {
			t.Fatalf("%q: %v", paths, err)
		}
		n := 0
		for _, w := range res.Warnings {
			if strings.HasPrefix(w, want) {
				n++
			}
		}
		if n != 1 || len(res.Records) != len(lines) {
			t.Errorf("%q: %d records, warnings %q; want %d records and one %q…", paths, len(res.Records), res.Warnings, len(lines), want)
		}
	}
}

// TestBareRecordWithoutRunIDMessage: a results file without run.json whose
// records carry no run id (a run made before records carried their run),
// read beside a run with one, is refused with a message that says so — it
// said "a record of run , but …".
func TestBareRecordWithoutRunIDMessage(t *testing.T) {
	run, data := allNegRun(t)
	var rec Record
	if err := json.Unmarshal(data[:bytes.IndexByte(data, '\n')], &rec); err != nil {
		t.Fatal(err)
	}
	rec.RunID = ""
	line, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "results.jsonl")
	writeText(t, bare, string(line)+"\n")
	_, err = ReadRuns([]string{run, bare}, ReadOptions{Tolerant: true})
	if err == nil {
		t.Fatal("a record without a run id beside a run with one is read")
	}
	msg := err.Error()
	man, err := ReadManifest(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{bare + ":1: cell ", "is a record without a run id (of a run made before records carried their run)", "read with its run.json, is run " + man.RunID} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q; want it to say %q", msg, want)
		}
	}
	if strings.Contains(msg, "run ,") || strings.Contains(msg, "run  ") {
		t.Errorf("error %q names an empty run id", msg)
	}
}

// allNegRun runs the tests' usual grid (testConfig) of allNegMethod into a
// new directory and returns it and its results file's contents.
func allNegRun(t *testing.T) (string, []byte) {
	t.Helper()
	f := testFolder(t)
	run := t.TempDir()
	sum, err := Run(context.Background(), testConfig(f, run, testSources(t, f), allNegMethod))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sum.File)
	if err != nil {
		t.Fatal(err)
	}
	return run, data
}
