package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/buildinfo"
)

// TestRecordMembersAreWhatTheWriterWrites: the members every record must
// have (recordMembers) are exactly those the writer always writes — for a
// binary cell every member of Record but the omitempty ones and run_id,
// which the reader of a run checks against its run.json, and for an N-way
// episode (Ways > 0) every member of episodeRecord but those — and
// recordKind tells the two apart.
func TestRecordMembersAreWhatTheWriterWrites(t *testing.T) {
	for kind, r := range map[string]Record{"cell": {}, "episode": {Ways: 5}} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var written map[string]any
		if err := json.Unmarshal(b, &written); err != nil {
			t.Fatal(err)
		}
		delete(written, "run_id")
		got := slices.Sorted(slices.Values(recordMembers[kind]))
		if want := slices.Sorted(maps.Keys(written)); !slices.Equal(got, want) {
			t.Errorf("a %s's record must have %v; the writer always writes %v", kind, got, want)
		}
		members := map[string]bool{}
		for name := range written {
			members[name] = true
		}
		if k := recordKind(members); k != kind {
			t.Errorf("a %s's record is of kind %q", kind, k)
		}
	}
}

// TestRecordsCarryTheirRun: a finished cell replaced by the same cell of
// a run with another seed was merged as complete (issue 18, row 2). Every
// record carries its run's identity, and Merge, ReadRuns (strict and
// tolerant) and Run's resume refuse a record of another run, naming the
// file and line. Runs made before records carried it are read as before
// but not resumed.
func TestRecordsCarryTheirRun(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	runDir, otherDir := t.TempDir(), t.TempDir()
	sum, err := Run(context.Background(), testConfig(f, runDir, src, allNegMethod))
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(f, otherDir, src, allNegMethod)
	cfg.Seed = 2
	other, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	man, err := ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	otherMan, err := ReadManifest(otherDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(man.RunID) != 16 || man.RunID != man.ID() || otherMan.RunID == man.RunID {
		t.Fatalf("run ids %q and %q (seed 2), want 16 hex digits, distinct", man.RunID, otherMan.RunID)
	}
	lines := fileLines(t, sum.File)
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"run_id":"`+man.RunID+`",`) {
			t.Fatalf("a record without its run's identity: %s", l)
		}
	}

	// Cell 3 of the run replaced by the seed-2 run's record of that cell.
	var rec Record
	if err := json.Unmarshal([]byte(lines[2]), &rec); err != nil {
		t.Fatal(err)
	}
	var foreign string
	for _, l := range fileLines(t, other.File) {
		var r Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Key() == rec.Key() {
			// The other file's last line has no newline (fileLines):
			// its records are written in the order the workers finish.
			foreign = strings.TrimSuffix(l, "\n") + "\n"
		}
	}
	spliced := slices.Clone(lines)
	spliced[2] = foreign
	mixed := copyRunDir(t, runDir, spliced)
	want := fmt.Sprintf("results.jsonl:3: cell %v is a record of run %s, not of this run (%s)", rec.Key(), otherMan.RunID, man.RunID)
	check := func(what string, err error, want string) {
		t.Helper()
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an input error containing %q", what, err, want)
		}
	}
	_, err = Merge([]string{mixed}, "")
	check("merge", err, want)
	_, err = ReadRuns([]string{mixed}, ReadOptions{Tolerant: true, CombineRuns: true})
	check("a report's read", err, want)
	_, err = Run(context.Background(), testConfig(f, mixed, src, allNegMethod))
	check("resume", err, want)

	// A record without its identity, in a run whose records carry it.
	stripped := slices.Clone(lines)
	stripped[1] = strings.Replace(lines[1], `"run_id":"`+man.RunID+`",`, "", 1)
	_, err = Merge([]string{copyRunDir(t, runDir, stripped)}, "")
	check("no run_id", err, "results.jsonl:2: run_id is missing (every record of run "+man.RunID+" has it)")

	// run.json edited: its settings are not those of its identity.
	edited := copyRunDir(t, runDir, lines)
	manText := readText(t, filepath.Join(edited, ManifestFile))
	seed := regexp.MustCompile(`"seed": *1,`)
	if !seed.MatchString(manText) {
		t.Fatalf("no seed 1 in %s", manText)
	}
	writeText(t, filepath.Join(edited, ManifestFile), seed.ReplaceAllString(manText, `"seed": 2,`))
	_, err = Merge([]string{edited}, "")
	check("run.json edited", err, "was run.json edited?")

	// Without run.json (tolerated by a report), a file's records are of one
	// run.
	bare := t.TempDir()
	writeText(t, filepath.Join(bare, "results.jsonl"), strings.Join(spliced, ""))
	_, err = ReadRuns([]string{bare}, ReadOptions{Tolerant: true})
	check("no run.json", err, "results.jsonl:3: cell")

	// Another run's results copied without its run.json, beside a run of
	// the same dataset read with its run.json, in either order: refused
	// (its cells joined the run's tables, or were dropped as duplicates of
	// the run's). The run's own records copied so are read, as is the copy
	// alone; a record of the run outside its grid is refused.
	copied := filepath.Join(t.TempDir(), "copy.jsonl")
	writeText(t, copied, readText(t, other.File))
	firstOther := strings.SplitN(readText(t, other.File), "\n", 2)[0]
	var otherRec Record
	if err := json.Unmarshal([]byte(firstOther), &otherRec); err != nil {
		t.Fatal(err)
	}
	wantCopy := fmt.Sprintf("copy.jsonl:1: cell %v is a record of run %s, but %s, read with its run.json, is run %s", otherRec.Key(), otherMan.RunID, runDir, man.RunID)
	for _, paths := range [][]string{{runDir, copied}, {copied, runDir}} {
		_, err = ReadRuns(paths, ReadOptions{Tolerant: true, CombineRuns: true})
		check(fmt.Sprintf("another run's copy, %v", paths), err, wantCopy)
	}
	if _, err := ReadRuns([]string{copied}, ReadOptions{Tolerant: true, CombineRuns: true}); err != nil {
		t.Errorf("another run's copy alone: %v", err)
	}
	own := filepath.Join(t.TempDir(), "own.jsonl")
	writeText(t, own, readText(t, sum.File))
	if res, err := ReadRuns([]string{runDir, own}, ReadOptions{Tolerant: true, CombineRuns: true}); err != nil || len(res.Records) != len(lines) || len(res.Duplicates) != len(lines) {
		t.Errorf("the run's own copy: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.jsonl")
	writeText(t, outside, strings.Replace(lines[0], `"split":`, `"split":9`, 1))
	_, err = ReadRuns([]string{runDir, outside}, ReadOptions{Tolerant: true, CombineRuns: true})
	check("a record of the run outside its grid", err, "outside.jsonl:1: cell")
	check("a record of the run outside its grid", err, "is not in the grid of run "+man.RunID)

	// A run made before records carried their run: no run_id in run.json
	// or in the records. Read as before, merged as it is, not resumed; a
	// record that carries an identity is not one of its records.
	var old Manifest
	if err := json.Unmarshal([]byte(manText), &old); err != nil {
		t.Fatal(err)
	}
	old.RunID = ""
	oldLines := make([]string, len(lines))
	for i, l := range lines {
		oldLines[i] = strings.Replace(l, `"run_id":"`+man.RunID+`",`, "", 1)
	}
	legacy := copyRunDir(t, runDir, oldLines)
	if err := old.write(legacy); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if rep, err := Merge([]string{legacy}, merged); err != nil || !rep.Complete() {
		t.Errorf("merging a run of before: %+v, %v", rep, err)
	}
	if res, err := ReadRuns([]string{merged}, ReadOptions{Tolerant: true}); err != nil || len(res.Records) != len(lines) {
		t.Errorf("reading the merge of a run of before: %v", err)
	}
	_, err = Run(context.Background(), testConfig(f, legacy, src, allNegMethod))
	check("resuming a run of before", err, "made before records carried their run's identity")
	// Half of such a run, and the seed-2 run's records of its other cells
	// without run_id, in a file without run.json: neither carries an
	// identity, so the file's records cannot be told for the run's own, and
	// its run.json not found is the file's only flag (it was withdrawn, the
	// records matching the run's empty identity).
	half := copyRunDir(t, legacy, oldLines[:len(oldLines)/2])
	held := map[Key]bool{}
	for _, l := range oldLines[:len(oldLines)/2] {
		var r Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		held[r.Key()] = true
	}
	var rest []string
	for _, l := range fileLines(t, other.File) {
		var r Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if !held[r.Key()] {
			rest = append(rest, strings.TrimSuffix(strings.Replace(l, `"run_id":"`+otherMan.RunID+`",`, "", 1), "\n")+"\n")
		}
	}
	otherBare := filepath.Join(t.TempDir(), "legacy-seed2.jsonl")
	writeText(t, otherBare, strings.Join(rest, ""))
	if res, err := ReadRuns([]string{half, otherBare}, ReadOptions{Tolerant: true}); err != nil {
		t.Errorf("a run of before and a file of another's records without run_id: %v", err)
	} else if want := filepath.Join(filepath.Dir(otherBare), ManifestFile) + ": not found"; !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("a run of before and a file of another's records without run_id: warnings %q, want %q…", res.Warnings, want)
	}
	oldLines[0] = lines[0]
	_, err = Merge([]string{copyRunDir(t, legacy, oldLines)}, "")
	check("a record with an identity in a run of before", err, "results.jsonl:1: cell")

	// Runs whose grids overlap compute the same cells: the same records
	// but for their run, read once.
	fewer := t.TempDir()
	cfg = testConfig(f, fewer, src, allNegMethod)
	cfg.Splits = 1
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	res, err := ReadRuns([]string{runDir, fewer}, ReadOptions{Tolerant: true, CombineRuns: true})
	if err != nil || len(res.Conflicts) != 0 || len(res.Duplicates) != len(lines)/2 {
		t.Errorf("overlapping grids: %v, %d duplicates, conflicts %v", err, len(res.Duplicates), res.Conflicts)
	}
}

// fileLines returns the lines of a file, each with its newline.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	return strings.SplitAfter(strings.TrimSuffix(readText(t, path), "\n"), "\n")
}

// copyRunDir copies the run.json of the run directory dir into a new
// directory, with a results.jsonl of the given lines, and returns it.
func copyRunDir(t *testing.T, dir string, lines []string) string {
	t.Helper()
	out := t.TempDir()
	writeText(t, filepath.Join(out, ManifestFile), readText(t, filepath.Join(dir, ManifestFile)))
	text := strings.Join(lines, "")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	writeText(t, filepath.Join(out, "results.jsonl"), text)
	return out
}

func readText(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeText(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunIDReadsAnAbsentProtocolAsStandard: a run.json without a protocol
// is read as the standard protocol (files of earlier versions), so its
// identity is that of the standard protocol's, before and after reading.
func TestRunIDReadsAnAbsentProtocolAsStandard(t *testing.T) {
	m := fuzzManifest()
	absent := *m
	absent.Protocol, absent.RunID = "", ""
	absent.RunID = absent.ID()
	if absent.RunID != m.RunID {
		t.Fatalf("identity %s without a protocol, %s with the standard one", absent.RunID, m.RunID)
	}
	dir := t.TempDir()
	if err := absent.write(dir); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadManifest(dir); err != nil || back.RunID != m.RunID {
		t.Fatalf("read back: %+v, %v", back, err)
	}
	skewed := *m
	skewed.Protocol = ProtocolSkewed
	if skewed.ID() == m.ID() {
		t.Error("the skewed protocol's run has the standard one's identity")
	}
}

// TestDiffersNamesBuilds: runs of two greedytl versions differ in the
// greedytl version, whose message names both (and the Go that built
// each, when run.json says); when one of them is a build that its version
// does not identify (an executable's digest, or "devel" alone or a
// modified tree's "+dirty" from an earlier greedytl), it also says why and
// what to do.
func TestDiffersNamesBuilds(t *testing.T) {
	for _, c := range []struct {
		a, b string
		hint bool
	}{
		{"devel sha256:0123456789abcdef", "devel sha256:fedcba9876543210", true},
		{"devel", "devel sha256:0123456789abcdef", true},
		{"devel abc+dirty sha256:0123456789abcdef", "devel abc", true},
		// Earlier greedytls' builds of a modified tree, recorded without
		// the digest: their revision does not name their code.
		{"devel abc+dirty", "v1.2.0", true}, {"v0.0.0-20260101000000-abc+dirty", "v1.2.0", true},
		{"v1.2.0", "devel abc", false},
		{"v1.2.0", "v1.3.0", false},
	} {
		a := &Manifest{GreedytlVersion: c.a, Build: &buildinfo.Info{Go: "go1.25.1"}}
		b := &Manifest{GreedytlVersion: c.b}
		d := a.differs(b, true)
		if !strings.HasPrefix(d, `greedytl version: "`+c.a+`" (built by go1.25.1) vs "`+c.b+`"`) {
			t.Errorf("%s vs %s: %q does not name both", c.a, c.b, d)
		}
		if got := strings.Contains(d, "one binary"); got != c.hint {
			t.Errorf("%s vs %s: %q: says what to do %v, want %v", c.a, c.b, d, got, c.hint)
		}
	}
}
