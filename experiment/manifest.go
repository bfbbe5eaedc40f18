package experiment

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/internal/textcut"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// Names in a run directory.
const (
	// ManifestFile is a run directory's settings file.
	ManifestFile = "run.json"
	// ManifestFormat and ManifestVersion are its "format" and "version".
	ManifestFormat  = "greedytl-experiment"
	ManifestVersion = 1
)

// Manifest is the content of a run directory's run.json: everything that
// defines the run's grid and its cells' results. Run writes it when a run
// starts and refuses to resume a directory whose manifest differs; Merge
// merges only results whose manifests agree (except for the shard and the
// informational paths).
type Manifest struct {
	Format  string `json:"format"`  // "greedytl-experiment"
	Version int    `json:"version"` // 1
	// GreedytlVersion is the version of the greedytl build that ran it
	// (buildinfo.Info.ID: its module version, or "devel" and the VCS
	// revision; for a build that these do not identify, followed by the
	// digest of its executable: "devel sha256:0123456789abcdef").
	GreedytlVersion string `json:"greedytl_version"`
	// Build describes that build in full (module version, commit, Go
	// version, the executable's digest); informational, not compared.
	Build *buildinfo.Info `json:"build,omitempty"`
	// Dataset identifies the data.
	Dataset DatasetInfo `json:"dataset"`
	// Classes and Groups are the dataset's class names and their groups
	// (null without groups.txt), in class order.
	Classes []string `json:"classes"`
	Groups  []string `json:"groups"`
	// Negatives is the negative pool: its classes, how they were drawn,
	// and the rows of the source and target negatives.
	Negatives *source.Negatives `json:"negatives"`
	// Sources identifies the source hypotheses: the sources directory
	// the run read (informational) and the sources' identity
	// (source.Index.Identity, what must match), count, data digest and
	// training seed.
	Sources source.ID `json:"sources"`
	// Targets, Positives, Splits, Noise and Methods span the grid: a cell
	// is (target, positives, noise, split, method).
	Targets   []string `json:"targets"`
	Positives []int    `json:"positives"`
	Splits    int      `json:"splits"`
	Noise     []int    `json:"noise"`
	Methods   []string `json:"methods"`
	// Seed seeds the splits, the noise and the methods.
	Seed uint64 `json:"seed"`
	// Protocol is ProtocolStandard or ProtocolSkewed (read as standard
	// when absent, as in the files of earlier versions).
	Protocol string `json:"protocol"`
	// TrainNegatives, MaxTestPositives and MaxTestNegatives are the
	// protocol's set sizes; a bound of 0 means every example left.
	TrainNegatives   int `json:"train_negatives"`
	MaxTestPositives int `json:"max_test_positives"`
	MaxTestNegatives int `json:"max_test_negatives"`
	// Ways and TestPerClass are ProtocolNWay's: the numbers of classes of
	// an episode and the test examples per class (absent for the other
	// protocols). An N-way run's grid is (ways, shots, episode, method):
	// Positives holds the shots, Splits the episodes, Targets the pool of
	// classes the episodes draw from, and Noise is [0].
	Ways         []int `json:"ways,omitempty"`
	TestPerClass int   `json:"test_per_class,omitempty"`
	// Shard is the part of the grid the directory's results cover (null:
	// all of it).
	Shard *shard.Shard `json:"shard"`
	// RunID is the run's identity, ID: a digest of the settings above that
	// define its results (not the paths, the build details or the shard),
	// which every record of the run carries, so that a record copied from
	// another run is refused. Runs made before records carried it have
	// none (see ReadRuns).
	RunID string `json:"run_id,omitempty"`

	// recorded holds Methods as run.json spells them when that is not
	// their canonical text (a run made before modelfile.FormatSetting
	// wrote a whole number from 10⁶ on in digits: "greedytl:max_k=1e+06"
	// for today's "greedytl:max_k=1000000"), nil otherwise: check puts
	// the canonical texts in Methods (upgradeMethods), and ID and
	// MarshalJSON use these while they spell Methods (asRecorded).
	recorded []string
}

// DatasetInfo identifies a run's dataset.
type DatasetInfo struct {
	// Name names the dataset in the records.
	Name string `json:"name"`
	// Path is where the run read it (informational: a resumed run or a
	// shard may read it elsewhere).
	Path string `json:"path"`
	// SHA256 is source.DataDigest of the data, as the sources index
	// records it; it is what must match.
	SHA256   string `json:"sha256"`
	Examples int    `json:"examples"`
	Features int    `json:"features"`
}

// ReadManifest reads and validates the run.json of the run directory dir.
func ReadManifest(dir string) (*Manifest, error) {
	return jsonfile.Read(filepath.Join(dir, ManifestFile), "manifest object", (*Manifest).check)
}

// check validates a manifest read from a file: the format and version, and
// a grid that names known classes.
func (m *Manifest) check() error {
	if m.Format != ManifestFormat || m.Version != ManifestVersion {
		return fmt.Errorf("format %q version %d, this greedytl reads %q version %d", m.Format, m.Version, ManifestFormat, ManifestVersion)
	}
	m.upgradeMethods()
	if m.Dataset.Name == "" || len(m.Classes) == 0 || len(m.Targets) == 0 || len(m.Positives) == 0 ||
		m.Splits < 1 || len(m.Noise) == 0 || len(m.Methods) == 0 || m.Negatives == nil {
		return errors.New("incomplete manifest: the dataset name, classes, negatives, targets, positives, splits, noise and methods are all needed")
	}
	if m.Protocol == "" {
		m.Protocol = ProtocolStandard
	}
	if _, ok := protocolSizes(m.Protocol); !ok {
		return fmt.Errorf("unknown protocol %q", m.Protocol)
	}
	if nway := m.Protocol == ProtocolNWay; nway != (len(m.Ways) > 0) || nway != (m.TestPerClass > 0) {
		return fmt.Errorf("protocol %s with ways %v and test_per_class %d: ways and test_per_class (≥ 1) are given for the %s protocol alone", m.Protocol, m.Ways, m.TestPerClass, ProtocolNWay)
	}
	if m.Groups != nil && len(m.Groups) != len(m.Classes) {
		return fmt.Errorf("%s for %s", plural.Count(len(m.Groups), "group", "groups"), plural.Count(len(m.Classes), "class", "classes"))
	}
	for _, t := range m.Targets {
		if classIndex(m.Classes, t) < 0 {
			return fmt.Errorf("target %q is not a class", t)
		}
	}
	if err := m.checkGrid(); err != nil {
		return err
	}
	if m.Shard != nil {
		if err := m.Shard.Check(); err != nil {
			return err
		}
	}
	if m.RunID != "" && m.RunID != m.ID() {
		return fmt.Errorf("run_id %s is not the identity of the run's settings (%s): was run.json edited?", m.RunID, m.ID())
	}
	return nil
}

// upgradeMethods puts in Methods, as read from a run.json, the canonical
// text of each (modelfile.UpgradeSpec), as the records' methods are read
// (Record.upgradeMethod), so that a run made before modelfile.FormatSetting wrote
// a whole number from 10⁶ on in digits names its methods, and keys its
// cells, as a run made today: a resume, a merge and a report see one
// method, not two spellings of it. The texts as recorded stay in
// recorded, which ID digests and write writes: the run's identity, which
// its records carry, is that of the run.json written.
func (m *Manifest) upgradeMethods() {
	var up []string
	for i, t := range m.Methods {
		if u := modelfile.UpgradeSpec(t); u != t {
			if up == nil {
				up = slices.Clone(m.Methods)
			}
			up[i] = u
		}
	}
	if up != nil {
		m.recorded, m.Methods = m.Methods, up
	}
}

// asRecorded returns m with its methods as its run.json spells them
// (recorded), or m itself when they are their canonical texts — or when
// recorded is not a spelling of Methods (as many texts, each read as its
// Methods' text by modelfile.UpgradeSpec): a copy of a manifest given
// other methods is digested and written with those.
func (m *Manifest) asRecorded() *Manifest {
	if len(m.recorded) != len(m.Methods) {
		return m
	}
	for i, t := range m.recorded {
		if modelfile.UpgradeSpec(t) != m.Methods[i] {
			return m
		}
	}
	if m.recorded == nil {
		return m
	}
	r := *m
	r.Methods, r.recorded = m.recorded, nil
	return &r
}

// ID returns the run's identity: the first 64 bits, in hex, of the SHA-256
// digest of the settings that define its results (settings: the format,
// greedytl version, dataset, classes, seed, negative plan, sources, grid,
// protocol and set sizes; not the paths, the build details or the shard,
// so that the shards of a run and their merge have one identity). It
// digests the methods as run.json spells them (Manifest.recorded).
func (m *Manifest) ID() string {
	m = m.asRecorded()
	h := sha256.New()
	for _, s := range settings {
		v := s.get(m)
		if v == nil {
			continue // a setting added later, at the value runs before it had
		}
		b, _ := json.Marshal(v)
		fmt.Fprintf(h, "%s=%s\n", s.name, b)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// maxGridCells bounds the cells of a run's grid: 10⁸, some fifty times
// the paper's ImageNet grid — a grid that Run could not finish, and that
// the readers of a run could not list.
const maxGridCells = 100_000_000

// checkGrid checks the lists that span the grid: each without repeats,
// positives ≥ 1, noise levels ≥ 0, and at most maxGridCells cells.
func (m *Manifest) checkGrid() error {
	// In a fixed order: the first list with a repeat is named, every time.
	for _, l := range []struct {
		name string
		list []string
	}{{"method", m.Methods}, {"target", m.Targets}} {
		if dup := firstDuplicate(l.list); dup != "" {
			return fmt.Errorf("%s %q listed twice", l.name, dup)
		}
	}
	for _, l := range []struct {
		name string
		list []int
	}{{"number of positives", m.Positives}, {"noise level", m.Noise}, {"number of ways", m.Ways}} {
		name, list := l.name, l.list
		for k, v := range list {
			switch {
			case slices.Contains(list[:k], v):
				return fmt.Errorf("%s %d listed twice", name, v)
			case v < 0 || (v == 0 && name == "number of positives") || (v < 2 && name == "number of ways"):
				return fmt.Errorf("%s %d is out of range", name, v)
			case name == "number of ways" && v > len(m.Targets):
				return fmt.Errorf("%d ways but a pool of %s", v, plural.Count(len(m.Targets), "class", "classes"))
			}
		}
	}
	// In floating point: the product of the sizes may overflow an int.
	if m.Protocol == ProtocolNWay {
		if cells := float64(len(m.Ways)) * float64(len(m.Positives)) * float64(m.Splits) * float64(len(m.Methods)); cells > maxGridCells {
			return fmt.Errorf("a grid of %.3g cells (%s × %d of shots × %s × %s): more than %d",
				cells, plural.Count(len(m.Ways), "number of ways", "numbers of ways"), len(m.Positives),
				plural.Count(m.Splits, "episode", "episodes"), plural.Count(len(m.Methods), "method", "methods"), maxGridCells)
		}
		return nil
	}
	if cells := float64(len(m.Targets)) * float64(len(m.Positives)) * float64(len(m.Noise)) * float64(m.Splits) * float64(len(m.Methods)); cells > maxGridCells {
		return fmt.Errorf("a grid of %.3g cells (%s × %s × %s × %s × %s): more than %d",
			cells, plural.Count(len(m.Targets), "target", "targets"), plural.Count(len(m.Positives), "size", "sizes"),
			plural.Count(len(m.Noise), "noise level", "noise levels"), plural.Count(m.Splits, "split", "splits"),
			plural.Count(len(m.Methods), "method", "methods"), maxGridCells)
	}
	return nil
}

// classIndex returns the index of name in classes, or −1.
func classIndex(classes []string, name string) int {
	for k, c := range classes {
		if c == name {
			return k
		}
	}
	return -1
}

// write writes the manifest to dir/run.json atomically (MarshalJSON: its
// methods spelled as the run.json read spelled them, Manifest.recorded,
// which its identity digests).
func (m *Manifest) write(dir string) error {
	return jsonfile.Write(filepath.Join(dir, ManifestFile), m)
}

// MarshalJSON writes m as its run.json holds it: the methods spelled as
// the run.json read spelled them (asRecorded), so that the run_id it
// carries is the identity of what it writes.
func (m Manifest) MarshalJSON() ([]byte, error) {
	type plain Manifest // Manifest's members, without this method
	return json.Marshal((*plain)(m.asRecorded()))
}

// setting is one of settings: a setting of a run, its name, value and
// summary.
type setting struct {
	name string
	get  func(*Manifest) any
	show func(*Manifest) string
}

// settings lists the settings that define a run's results, by the name a
// mismatch is reported under, in the order they are compared (a cause
// before its consequences: the seed draws the negative plan). get returns
// the value compared; show, if not nil, a summary for the message. The
// paths and the shard are not among them. They are also what a run's
// identity (Manifest.ID) digests: a setting added later must not change
// the identity of the runs made before it, so its get returns nil at the
// value those runs had implicitly (ID skips nil).
var settings = []setting{
	{"format", func(m *Manifest) any { return [2]any{m.Format, m.Version} }, nil},
	{"greedytl version", func(m *Manifest) any { return m.GreedytlVersion }, func(m *Manifest) string {
		if m.Build == nil {
			return strconv.Quote(m.GreedytlVersion)
		}
		return fmt.Sprintf("%q (built by %s)", m.GreedytlVersion, m.Build.Go)
	}},
	{"dataset name", func(m *Manifest) any { return m.Dataset.Name }, nil},
	{"dataset content", func(m *Manifest) any { return [3]any{m.Dataset.SHA256, m.Dataset.Examples, m.Dataset.Features} },
		func(m *Manifest) string {
			return fmt.Sprintf("%d×%d, sha256 %.12s…", m.Dataset.Examples, m.Dataset.Features, m.Dataset.SHA256)
		}},
	{"classes", func(m *Manifest) any { return m.Classes }, nil},
	{"groups", func(m *Manifest) any { return m.Groups }, nil},
	{"seed", func(m *Manifest) any { return m.Seed }, nil},
	{"negative plan", func(m *Manifest) any { return m.Negatives },
		func(m *Manifest) string {
			n := m.Negatives
			return fmt.Sprintf("classes %v (named %v, fraction %v, seed %d), %d source and %d target negatives",
				n.Classes, n.Named, n.Fraction, n.Seed, len(n.Source), len(n.Target))
		}},
	{"sources", func(m *Manifest) any { return [2]any{m.Sources.SHA256, m.Sources.Count} },
		func(m *Manifest) string {
			in := ""
			if m.Sources.Dir != "" {
				in = " in " + m.Sources.Dir // which of the two is which
			}
			return fmt.Sprintf("%s%s, sha256 %.12s…", plural.Count(m.Sources.Count, "source", "sources"), in, m.Sources.SHA256)
		}},
	// The targets as Run lists them: a binary run's in class order (each
	// cell's draws are its target's alone, so the order given is not the
	// run's), an N-way run's pool as given (an episode draws its classes
	// by their place in it). A run.json listing them otherwise (written by
	// a greedytl that kept the order given) is another run: its run_id,
	// which its records carry, digests that order.
	{"targets", func(m *Manifest) any { return m.Targets }, nil},
	// The lists of sizes, noise levels and methods are sets: the order they
	// were given in changes the order of the work, not the run.
	{"positives", func(m *Manifest) any { return slices.Sorted(slices.Values(m.Positives)) }, nil},
	{"splits", func(m *Manifest) any { return m.Splits }, nil},
	{"noise", func(m *Manifest) any { return slices.Sorted(slices.Values(m.Noise)) }, nil},
	{"methods", func(m *Manifest) any { return slices.Sorted(slices.Values(m.Methods)) }, nil},
	{"protocol", func(m *Manifest) any { return cmp.Or(m.Protocol, ProtocolStandard) }, nil}, // absent: standard
	{"set sizes", func(m *Manifest) any { return [3]int{m.TrainNegatives, m.MaxTestPositives, m.MaxTestNegatives} }, nil},
	// ProtocolNWay's settings, nil (not digested) for the others.
	{"ways", func(m *Manifest) any {
		if len(m.Ways) == 0 {
			return nil
		}
		return slices.Sorted(slices.Values(m.Ways))
	}, nil},
	{"test per class", func(m *Manifest) any {
		if m.TestPerClass == 0 {
			return nil
		}
		return m.TestPerClass
	}, nil},
}

// differs returns a message naming the first setting in which m and o
// differ (ignoring the shard and the paths), or "" when they agree. The
// sources are compared only when compareSources is set.
func (m *Manifest) differs(o *Manifest, compareSources bool) string {
	for _, s := range reportOrder {
		if !compareSources && s.name == "sources" {
			continue
		}
		a, _ := json.Marshal(s.get(m))
		b, _ := json.Marshal(s.get(o))
		if bytes.Equal(a, b) {
			continue
		}
		name := s.name
		if name == "positives" && m.Protocol == ProtocolNWay {
			name = "shots" // what an N-way run's Positives hold (--shots)
		}
		if s.name == "greedytl version" && (!buildinfo.IdentifiedID(m.GreedytlVersion) || !buildinfo.IdentifiedID(o.GreedytlVersion)) {
			return fmt.Sprintf("%s: %s vs %s — %s", name, s.show(m), s.show(o), unidentifiedBuilds)
		}
		if s.show != nil {
			return fmt.Sprintf("%s: %s vs %s", name, s.show(m), s.show(o))
		}
		return fmt.Sprintf("%s: %s vs %s", name, abbreviate(a), abbreviate(b))
	}
	return ""
}

// unidentifiedBuilds says, after two greedytl versions that differ of which
// one at least is not identified (buildinfo.IdentifiedID), why they differ and what to do.
const unidentifiedBuilds = "a build that no commit identifies (go run, go test, -buildvcs=false, which GOFLAGS may set, a modified tree) is told apart by the SHA-256 of its executable (greedytl version prints it), so the same code built by another Go, with other flags or in another directory (unless -trimpath) is another build: run and resume every shard with one binary (go build -o greedytl ./cmd/greedytl once), or build from a clean git checkout with VCS stamping on so that the builds of one commit agree"

// reportOrder is settings in the order differs compares them: the protocol
// before the targets and the grid, whose meaning it sets (an N-way run's
// positives are its shots), where settings, whose order Manifest.ID
// digests, has it after them.
var reportOrder = func() []setting {
	at := slices.IndexFunc(settings, func(s setting) bool { return s.name == "protocol" })
	order := slices.Delete(slices.Clone(settings), at, at+1)
	to := slices.IndexFunc(order, func(s setting) bool { return s.name == "targets" })
	return slices.Insert(order, to, settings[at])
}()

// abbreviate shortens a JSON value for a message to at most 80 bytes and
// "…", cut at the start of a character (class names may be any UTF-8).
func abbreviate(b []byte) string {
	if len(b) <= 80 {
		return string(b)
	}
	return textcut.Prefix(string(b), 80) + "…"
}

// sizes returns the manifest's set sizes.
func (m *Manifest) sizes() setSizes {
	return setSizes{m.TrainNegatives, m.MaxTestPositives, m.MaxTestNegatives}
}

// shardOf returns the manifest's shard (the zero Shard when none).
func (m *Manifest) shardOf() shard.Shard {
	if m.Shard == nil {
		return shard.Shard{}
	}
	return *m.Shard
}

// lockRun creates the run directory dir if needed (durably:
// atomicfile.MkdirAll) and locks it for this process (see dirlock): two
// processes writing one run would record cells twice. The error names the
// holder. Once dir is held, the temporary files that a run killed while
// writing there left (atomicfile.RemoveStale) are removed: those of the
// files a run or a merge writes, holding the lock (runOwned). Another
// command's (report's, a prediction given dir as its place) stay: it
// writes without the run's lock, and may be writing now. A run's own
// sources directory is swept when source.TrainAll locks it.
func lockRun(dir string) (*dirlock.Lock, error) {
	if err := atomicfile.MkdirAll(dir); err != nil {
		return nil, err
	}
	lock, err := dirlock.Acquire(dir)
	if err != nil {
		return nil, err
	}
	// A file that cannot be removed is only clutter: the run goes on.
	_, _ = atomicfile.RemoveStale(dir, runOwned)
	return lock, nil
}

// runOwned reports whether name, the base name of a file in a run
// directory, is one that only a holder of the run's lock writes:
// ManifestFile, and the JSON Lines files, a run's results (resultsName)
// and a merge's into a file there (Merge).
func runOwned(name string) bool {
	return name == ManifestFile || strings.HasSuffix(name, ".jsonl")
}

// IsRunDir reports whether dir is a run directory: one that holds
// ManifestFile (hasManifest), or a run's lock file and sources
// subdirectory without it yet (startedRun): a run that trains its own
// sources locks dir and trains them into dir/sources before it writes its
// ManifestFile, which may take hours, and a run stopped meanwhile leaves
// them so. It is no place for another command's files: train-sources
// refuses one as its output (a run trains its own sources into its
// sources subdirectory), and Run resumes it.
func IsRunDir(dir string) bool {
	return RunDirHolds(dir) != ""
}

// RunDirHolds returns, for a message, what makes dir a run directory
// (IsRunDir): its ManifestFile, or the lock file and sources subdirectory
// of a run that has not written it yet; "" when dir is none.
func RunDirHolds(dir string) string {
	switch {
	case hasManifest(dir):
		return ManifestFile
	case startedRun(dir):
		return fmt.Sprintf("%s and %s, but no %s: a run that has not written it yet: one training its sources, or stopped while it did", dirlock.LockFile, "sources"+string(filepath.Separator), ManifestFile)
	}
	return ""
}

// hasManifest reports whether dir holds ManifestFile.
func hasManifest(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ManifestFile))
	return err == nil
}

// startedRun reports whether dir holds a run's lock file
// (dirlock.LockFile, which Run creates before it trains its sources) and a
// sources subdirectory: a run that has not written its ManifestFile yet,
// as it does once its sources are trained (see IsRunDir).
func startedRun(dir string) bool {
	_, lerr := os.Lstat(filepath.Join(dir, dirlock.LockFile))
	st, err := os.Stat(filepath.Join(dir, "sources"))
	return lerr == nil && err == nil && st.IsDir()
}

// isSourcesDir returns an error naming dir, a directory without
// ManifestFile, when it is a sources directory (it holds source.IndexFile,
// written by train-sources) and not a run directory all the same (a run
// that has not written its ManifestFile yet: startedRun), which Run and
// Merge refuse as a run directory: the run's files and its own sources
// would be mixed into the directory, and a run given it as --out in place
// of --sources (an easy slip) would train sources of its own, silently.
// A directory holding both (a run written into a sources directory before
// this check) is a run's, and may be resumed: Run and Merge call it only
// for a directory without ManifestFile.
func isSourcesDir(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, source.IndexFile)); err != nil || startedRun(dir) {
		return nil
	}
	return fmt.Errorf("%s is a sources directory (it holds %s, which train-sources writes), not a run directory", dir, source.IndexFile)
}

// existingManifest reads dir's manifest, returning nil (and no error) when
// there is none.
func existingManifest(dir string) (*Manifest, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return m, err
}

// checkNoOrphanResults returns an input error when dir, a directory
// without manifest, holds the results file results (a name in dir) that a
// run or a merge would write, as such a file is not one they wrote (both
// write run.json first): a merge would replace it. Run and Merge call it
// before they lock dir, so that a directory they refuse is left as it was
// (no lock file made in it). With resume (a run), a file
// whose first line is a record is let through, to be resumed as the records
// of a run whose run.json was lost — the resume checks that every record is
// of this run — while one with no complete record line, which the resume
// would cut off whole as a partial last line, or whose first line is not a
// record, is refused before run.json is written beside it. The message
// names the command: experiment with resume, merge without.
func checkNoOrphanResults(dir, results string, resume bool) error {
	path := filepath.Join(dir, results)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	why, cmd := "", "merge"
	if resume {
		cmd = "experiment"
		errRecord := errors.New("a record")
		_, _, err := scanResults(path, func([]byte, *Record, int) error { return errRecord })
		switch {
		case err == errRecord:
			return nil
		case err != nil && !errors.Is(err, ErrInput):
			return err
		case err != nil:
			why = fmt.Sprintf(" (%v)", err)
		default:
			why = " (no complete record line)"
		}
	}
	return inputErrorf("%s: %s holds %s but no %s%s: not a run directory of greedytl experiment (or its %s was removed); give another directory, or move %s away", cmd, dir, results, ManifestFile, why, ManifestFile, path)
}

// checkNewOut checks out, the directory a run (resume) or a merge writes
// into, before they lock it, when it holds no ManifestFile — one that does
// is read and checked under the lock: that it is not a sources directory
// (isSourcesDir; the message ends with advice) nor holds a results file
// results that no run wrote (checkNoOrphanResults). The messages name the
// command: experiment with resume, merge without. It reports whether out
// holds no ManifestFile.
func checkNewOut(out, results string, resume bool, advice string) (bool, error) {
	if hasManifest(out) {
		return false, nil
	}
	if err := isSourcesDir(out); err != nil {
		cmd := "merge"
		if resume {
			cmd = "experiment"
		}
		return true, inputErrorf("%s: %w: %s", cmd, err, advice)
	}
	return true, checkNoOrphanResults(out, results, resume)
}
