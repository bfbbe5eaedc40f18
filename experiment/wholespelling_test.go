package experiment

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The runs of testdata/whole-spelling: one run of one grid (tiny, a 7-class
// folder of 6 features, targets a and b, 2 positives, 2 splits, methods
// greedytl:max_k=1000000, greedytl-59:max_k=1000000 and no-transfer, sources
// trained with --negative-classes neg1,neg2 --c-grid 1 --folds 2), made
// twice: "old" by the greedytl of commit 5ad9e06e, the last before
// modelfile.FormatSetting wrote a whole number from 10⁶ on in digits, whose
// run.json and records spell the methods greedytl:max_k=1e+06 and
// greedytl-59:max_k=1e+06; "new" by commit 9bef3c33, spelling them
// greedytl:max_k=1000000 and greedytl-59:max_k=1000000. Their records
// agree but for run_id, fit_seconds and that spelling.
var (
	oldSpellingRun = filepath.Join("testdata", "whole-spelling", "old")
	newSpellingRun = filepath.Join("testdata", "whole-spelling", "new")
	// canonicalMethods are the methods of both, in today's text.
	canonicalMethods = []string{"greedytl:max_k=1000000", "greedytl-59:max_k=1000000", "no-transfer"}
)

// TestOldSpellingRunReadsCanonical: a run made before FormatSetting's
// digits is read with its methods in today's canonical text, in its
// run.json and in its records, so that its cells are the cells a run made
// today names (the grid, the coverage and a resume key cells by the
// method's text); its identity is still that of its run.json as written
// (the records carry it). Before the fix the old run read as methods
// greedytl:max_k=1e+06 and greedytl-59:max_k=1e+06.
func TestOldSpellingRunReadsCanonical(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(oldSpellingRun, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"greedytl:max_k=1e+06"`)) {
		t.Fatalf("fixture %s: not a run.json of the old spelling", oldSpellingRun)
	}
	man, err := ReadManifest(oldSpellingRun)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(man.Methods, canonicalMethods) {
		t.Errorf("methods %q, want %q", man.Methods, canonicalMethods)
	}
	if id := man.ID(); id != man.RunID || id != "fbf9574e00ca65d9" {
		t.Errorf("ID %s, run_id %s: want the run_id written, fbf9574e00ca65d9", id, man.RunID)
	}
	res, err := ReadRuns([]string{oldSpellingRun}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 12 {
		t.Fatalf("%d records, want 12", len(res.Records))
	}
	for _, r := range res.Records {
		if !slices.Contains(canonicalMethods, r.Method) {
			t.Errorf("record of cell %v: method %q, want one of %q", r.Key(), r.Method, canonicalMethods)
		}
	}
	checkCanonicalCoverage(t, res)
}

// TestOldAndNewSpellingOneMethod: the old run and the same run made today,
// read together as a report reads them (CombineRuns), are one grid of
// three methods whose every cell is read twice, identically (Duplicates),
// not five methods of which two are one setting each spelled two ways.
// Before the fix: five methods, none duplicated.
func TestOldAndNewSpellingOneMethod(t *testing.T) {
	res, err := ReadRuns([]string{oldSpellingRun, newSpellingRun}, ReadOptions{Tolerant: true, CombineRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	checkCanonicalCoverage(t, res)
	if len(res.Records) != 12 || len(res.Duplicates) != 12 || len(res.Conflicts) != 0 {
		t.Errorf("%d records, %d duplicates, %d conflicts: want 12, 12 and 0", len(res.Records), len(res.Duplicates), len(res.Conflicts))
	}
}

// TestOldSpellingSameSettings: the old run's settings are the new run's but
// for the greedytl version (and the paths and identity): with the version
// made equal, neither differs from the other, as a resume and a merge
// compare them (Manifest.differs), where before the fix they differed in
// their methods; a method of another value still differs, and the new
// run's identity is unchanged.
func TestOldSpellingSameSettings(t *testing.T) {
	old, err := ReadManifest(oldSpellingRun)
	if err != nil {
		t.Fatal(err)
	}
	now, err := ReadManifest(newSpellingRun)
	if err != nil {
		t.Fatal(err)
	}
	if now.ID() != now.RunID {
		t.Errorf("new run: ID %s, run_id %s", now.ID(), now.RunID)
	}
	if old.GreedytlVersion == now.GreedytlVersion {
		t.Fatalf("fixtures of one greedytl version %s: want the old build's and the new one's", old.GreedytlVersion)
	}
	if d := old.differs(now, true); !strings.HasPrefix(d, "greedytl version:") {
		t.Errorf("old vs new: %q, want the greedytl version first", d)
	}
	same := *now
	same.GreedytlVersion, same.Build = old.GreedytlVersion, old.Build
	for _, pair := range [][2]*Manifest{{old, &same}, {&same, old}} {
		if d := pair[0].differs(pair[1], true); d != "" {
			t.Errorf("old and new of one version differ: %s", d)
		}
	}
	other := same
	other.Methods = slices.Clone(same.Methods)
	other.Methods[0] = "greedytl:max_k=2000000"
	if d := old.differs(&other, true); !strings.HasPrefix(d, "methods:") {
		t.Errorf("old vs max_k=2000000: %q, want the methods", d)
	}
}

// TestMergeOldSpellingRun: a merge of the old run writes its run.json with
// the methods as the run spelled them, which its identity (run_id, carried
// by every record) digests, and its records as read: the merge reads back
// (its run.json's run_id is its settings' identity) as the run itself.
// Guards the upgrade on read (Manifest.write writes what was read).
func TestMergeOldSpellingRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "merged")
	sum, err := Merge([]string{oldSpellingRun}, out)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete() || sum.Present != 12 {
		t.Errorf("merge: %d of %d cells", sum.Present, sum.Expected)
	}
	raw, err := os.ReadFile(filepath.Join(out, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"greedytl:max_k=1e+06"`)) || bytes.Contains(raw, []byte(`"greedytl:max_k=1000000"`)) {
		t.Errorf("merged run.json does not spell the methods as the run did:\n%s", raw)
	}
	man, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(man.Methods, canonicalMethods) {
		t.Errorf("merged run's methods %q, want %q", man.Methods, canonicalMethods)
	}
	res, err := ReadRuns([]string{out}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 12 {
		t.Errorf("merged run: %d records, want 12", len(res.Records))
	}
}

// checkCanonicalCoverage checks that res covers the canonical methods, in
// order, each with all 4 of its cells.
func checkCanonicalCoverage(t *testing.T, res *Results) {
	t.Helper()
	var methods []string
	for _, c := range res.Coverage() {
		methods = append(methods, c.Method)
		if !c.Complete() || c.Present != 4 {
			t.Errorf("coverage of %s: %d of %d cells, want 4 of 4", c.Method, c.Present, c.Expected)
		}
	}
	if !slices.Equal(methods, canonicalMethods) {
		t.Errorf("coverage of methods %q, want %q", methods, canonicalMethods)
	}
}

// TestRecordUnmarshalJSONOldSpelling: json.Unmarshal of a record of the old
// spelling (binary, and an episode's) reads its method as its canonical
// text, as the results files' reader does, so that a caller of the exported
// decoder keys its cells as a run made today. Before the fix only
// decodeRecord upgraded it: json.Unmarshal gave greedytl:max_k=1e+06.
func TestRecordUnmarshalJSONOldSpelling(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(oldSpellingRun, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(raw, []byte("\n"))
	if !bytes.Contains(line, []byte(`"method":"greedytl:max_k=1e+06"`)) {
		t.Fatalf("fixture %s: its first record is not greedytl:max_k=1e+06", oldSpellingRun)
	}
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	if r.Method != canonicalMethods[0] {
		t.Errorf("json.Unmarshal of a binary record: method %q, want %q", r.Method, canonicalMethods[0])
	}
	strict, err := decodeRecord(line)
	if err != nil {
		t.Fatal(err)
	}
	if strict.Method != r.Method {
		t.Errorf("decodeRecord method %q, json.Unmarshal %q", strict.Method, r.Method)
	}
	ep := Record{Dataset: "tiny", Ways: 3, Positives: 1, Method: "greedytl:max_k=1e+06", Classes: []string{"a", "b", "c"}, ClassIdx: []int{0, 1, 2}}
	b, err := json.Marshal(ep)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Ways != 3 || back.Method != canonicalMethods[0] {
		t.Errorf("json.Unmarshal of an episode record: ways %d method %q, want 3 and %q", back.Ways, back.Method, canonicalMethods[0])
	}
}

// TestOldSpellingManifestCopies: a copy of the old run's manifest given
// other methods, its recorded spelling left as read, is digested and
// serialised with those methods (Manifest.asRecorded uses the recorded
// texts only while they spell Methods), and json.Marshal of the manifest
// as read gives a run.json that passes its own run_id check (MarshalJSON,
// which write uses), the file as the run wrote it. Before the fix the copy
// digested the old methods, and json.Marshal wrote the canonical texts
// under the old run_id, which check refuses.
func TestOldSpellingManifestCopies(t *testing.T) {
	old, err := ReadManifest(oldSpellingRun)
	if err != nil {
		t.Fatal(err)
	}
	if old.recorded == nil {
		t.Fatalf("fixture %s: read without a recorded spelling", oldSpellingRun)
	}
	for _, methods := range [][]string{
		{"greedytl:max_k=2000000", canonicalMethods[1], canonicalMethods[2]},
		{canonicalMethods[1], canonicalMethods[0], canonicalMethods[2]},
		canonicalMethods[:2],
	} {
		cp := *old
		cp.Methods = slices.Clone(methods)
		fresh := cp
		fresh.recorded = nil
		if cp.ID() != fresh.ID() {
			t.Errorf("methods %q: the copy's ID %s, its settings' %s", methods, cp.ID(), fresh.ID())
		}
		b, err := json.Marshal(&cp)
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ Methods []string }
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Methods, methods) {
			t.Errorf("methods %q: json.Marshal of the copy writes %q", methods, back.Methods)
		}
	}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := ReadManifest(dir)
	if err != nil {
		t.Fatalf("json.Marshal of the old run's manifest: %v", err)
	}
	if !slices.Equal(again.Methods, canonicalMethods) || again.RunID != old.RunID {
		t.Errorf("read back: methods %q run_id %s, want %q and %s", again.Methods, again.RunID, canonicalMethods, old.RunID)
	}
	if err := old.write(dir); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(filepath.Join(oldSpellingRun, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, orig) {
		t.Errorf("write of the old run's manifest differs from its run.json:\n%s\nwant\n%s", written, orig)
	}
}

// TestConflictNamesVersions: two runs of the whole-spelling grid made by
// two versions of greedytl whose greedytl-59 records of one cell disagree
// (as when the versions' spellings of the spec seed the draw differently;
// here the new run's first greedytl-59 record is made to score otherwise)
// are refused as a report reads them, with an error that says the runs
// come from different versions of greedytl, names both, and says to rerun
// one of them with the other's greedytl. Runs of one version keep the
// error that says only that they disagree (the new run beside a copy of
// itself). Before the fix both errors
// said only "the runs disagree on it".
func TestConflictNamesVersions(t *testing.T) {
	dir := t.TempDir()
	copyRun := func(from, to string) {
		t.Helper()
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{ManifestFile, "results.jsonl"} {
			raw, err := os.ReadFile(filepath.Join(from, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == "results.jsonl" && strings.HasSuffix(to, "new") {
				lines := bytes.Split(raw, []byte("\n"))
				if !bytes.Contains(lines[1], []byte(`"method":"greedytl-59:max_k=1000000","balanced_accuracy":0.75,`)) {
					t.Fatalf("fixture %s: its second record is not greedytl-59's of balanced accuracy 0.75", from)
				}
				lines[1] = bytes.Replace(lines[1], []byte(`"balanced_accuracy":0.75,`), []byte(`"balanced_accuracy":0.5,`), 1)
				raw = bytes.Join(lines, []byte("\n"))
			}
			if err := os.WriteFile(filepath.Join(to, f), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	old, now := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	copyRun(oldSpellingRun, old)
	copyRun(newSpellingRun, now)
	oldMan, err := ReadManifest(old)
	if err != nil {
		t.Fatal(err)
	}
	nowMan, err := ReadManifest(now)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadRuns([]string{old, now}, ReadOptions{Tolerant: true, CombineRuns: true})
	if err == nil {
		t.Fatal("runs that disagree on a cell were read")
	}
	msg := err.Error()
	for _, want := range []string{"the runs disagree on it", "different versions of greedytl", oldMan.GreedytlVersion, nowMan.GreedytlVersion, "rerun one of them with the greedytl that made the other"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}

	// The new run read beside a copy of itself that disagrees on the cell:
	// one version, so the error says they disagree, nothing more.
	same := filepath.Join(dir, "same")
	copyRun(newSpellingRun, same)
	_, err = ReadRuns([]string{same, now}, ReadOptions{Tolerant: true, CombineRuns: true})
	if err == nil || !strings.Contains(err.Error(), "the runs disagree on it") || strings.Contains(err.Error(), "version") {
		t.Errorf("runs of one version: error %v, want one that says they disagree and nothing of versions", err)
	}
}
