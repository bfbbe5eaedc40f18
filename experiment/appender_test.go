package experiment

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/tmpfstest"
	"github.com/greedytl/greedytl/shard"
)

// A write of a record that failed part way (a full disk) left a partial
// line, after which the next record — written once the disk had room
// again, by another worker finishing its cell — made one malformed line in
// the middle of the file, which every reader, and the resume, refused: the
// appender cuts a failed write off, leaving complete lines only, and
// writes nothing after a failure.
func TestAppenderAfterAFailedWrite(t *testing.T) {
	page := os.Getpagesize()
	dir := tmpfstest.Mount(t, 2*page, false)
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, make([]byte, page), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, resultsName(shard.Shard{}))
	a, err := openAppender(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.close() })
	rec := &Record{Dataset: "d", Target: "t", Positives: 2, Negatives: 10, Method: "m", BalancedAccuracy: 0.5,
		TestPositives: 5, TestNegatives: 5, FitSeconds: 0.001, Features: 3, Candidates: 4}
	written := 0
	for ; written < 2*page; written++ {
		rec.Split = written
		if err = a.append(rec); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("after %d records on a full disk: %v; want no space left", written, err)
	}
	if strings.Count(err.Error(), path) != 1 {
		t.Errorf("%q: want it to name %s once", err, path)
	}
	if err := os.Remove(filler); err != nil { // room again
		t.Fatal(err)
	}
	rec.Split = written + 1
	if err := a.append(rec); err == nil {
		t.Error("a record was appended after a failed write")
	}
	n := 0
	_, partial, err := scanResults(path, func(_ []byte, r *Record, _ int) error {
		if r.Split != n {
			t.Errorf("record %d is of split %d", n, r.Split)
		}
		n++
		return nil
	})
	if err != nil || partial || n != written {
		t.Errorf("the results file after the failed write: %d records, partial last line %v, %v; want the %d written, complete", n, partial, err, written)
	}
}

// The appender syncs the directory of a results file it creates (it did
// not: a power loss could lose the file, with every record synced into
// it), and only then; a failing directory sync is an error naming the
// file.
func TestAppenderSyncsTheDirectoryOfANewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, resultsName(shard.Shard{}))
	var synced []string
	fail := error(nil)
	syncDir = func(d string) error { synced = append(synced, d); return fail }
	t.Cleanup(func() { syncDir = atomicfile.SyncDir })
	a, err := openAppender(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	a.close()
	if len(synced) != 1 || synced[0] != dir {
		t.Errorf("creating %s synced %q; want %s", path, synced, dir)
	}
	synced = nil
	if a, err = openAppender(path, 0); err != nil {
		t.Fatal(err)
	}
	a.close()
	if synced != nil {
		t.Errorf("reopening %s synced %q; want nothing", path, synced)
	}
	fail = errors.New("syncing the directory: input/output error")
	other := filepath.Join(dir, resultsName(shard.Shard{I: 1, N: 2}))
	if a, err = openAppender(other, 0); !errors.Is(err, fail) || !strings.Contains(err.Error(), other) {
		t.Errorf("a failing directory sync: %v; want its error naming %s", err, other)
		if a != nil {
			a.close()
		}
	}
}

// A sync of the results file that failed (an I/O error) did not stop
// later appends, which a crash could then keep without the records before
// them, and the next sync could succeed without having written those: the
// appender refuses every append after a failed sync, and its close does
// not sync again but returns the error, naming the file.
func TestAppenderAfterAFailedSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), resultsName(shard.Shard{}))
	a, err := openAppender(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	syncs := 0
	syncFile = func(f *os.File) error {
		syncs++
		if syncs == 2 {
			return &fs.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
		}
		return f.Sync()
	}
	t.Cleanup(func() { syncFile = (*os.File).Sync })
	rec := &Record{Dataset: "d", Target: "t", Positives: 2, Negatives: 10, Method: "m", BalancedAccuracy: 0.5,
		TestPositives: 5, TestNegatives: 5, FitSeconds: 0.001, Features: 3, Candidates: 4}
	for split := range 2 {
		rec.Split = split
		a.lastSync = time.Time{} // sync after this record
		err = a.append(rec)
	}
	if !errors.Is(err, syscall.EIO) || strings.Count(err.Error(), path) != 1 {
		t.Fatalf("the append whose sync failed: %v; want EIO naming %s once", err, path)
	}
	rec.Split = 2
	a.lastSync = time.Time{}
	if err := a.append(rec); !errors.Is(err, syscall.EIO) {
		t.Errorf("an append after a failed sync: %v; want the sync's error", err)
	}
	if err := a.close(); !errors.Is(err, syscall.EIO) || syncs != 2 {
		t.Errorf("close after a failed sync: %v after %d syncs; want the sync's error, no sync again", err, syncs)
	}
	if recs := readRecords(t, path); len(recs) != 2 {
		t.Errorf("%s holds %d records; want the 2 appended before the failed sync", path, len(recs))
	}
}

// A run whose results file fails to sync stops with that error, naming the
// file, and appends nothing after it.
func TestRunStopsAtAFailedSync(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	cfg := testConfig(f, t.TempDir(), src, "no-transfer")
	cfg.Workers = 2
	var mu sync.Mutex
	syncs, failedAt := 0, int64(-1)
	syncFile = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		if syncs++; syncs == 3 {
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			failedAt = fi.Size()
			return &fs.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
		}
		return f.Sync()
	}
	interval := syncInterval
	syncInterval = 0 // sync after every record
	t.Cleanup(func() { syncFile, syncInterval = (*os.File).Sync, interval })
	_, err := Run(context.Background(), cfg)
	file := filepath.Join(cfg.Out, resultsName(shard.Shard{}))
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), file) {
		t.Fatalf("Run: %v; want EIO naming %s", err, file)
	}
	if fi, err := os.Stat(file); err != nil {
		t.Error(err)
	} else if fi.Size() != failedAt {
		t.Errorf("%s: %d bytes; want the %d of the failed sync, nothing appended after it", file, fi.Size(), failedAt)
	}
}
