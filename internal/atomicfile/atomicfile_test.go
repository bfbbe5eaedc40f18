package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/greedytl/greedytl/internal/tmpfstest"
)

func TestWriteReplacesOnlyOnSuccess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half a file")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the fill error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("a failed write changed the file to %q", b)
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q, want new", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteIntoMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f")
	err := Write(path, func(io.Writer) error { return nil })
	if err == nil {
		t.Fatal("want an error for a missing directory")
	}
	// The message names the file asked for, once, and not the temporary
	// file (it said "PATH: open DIR/.f.tmp-123: no such file or directory").
	if msg := err.Error(); strings.Contains(msg, ".tmp-") || strings.Count(msg, path) != 1 || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q: want %s named once, no temporary file, and fs.ErrNotExist", msg, path)
	}
}

// TestWriteBelowAFile: a file to write below a regular file, directly or
// as a symbolic link's target (link -> f/x), is refused as a directory
// that is not there (an fs.ErrNotExist) whose message names the file on
// the way, by Check and by Write. The link gave "link: not a directory",
// no fs.ErrNotExist.
func TestWriteBelowAFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(f, "x"), link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(f, "x"), filepath.Join(f, "y", "x"), link} {
		want := path + ": " + f + " is a file, not a directory"
		for name, err := range map[string]error{
			"Check": Check(path),
			"Write": Write(path, func(io.Writer) error { return nil }),
		} {
			if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s(%s): %v; want %q, an fs.ErrNotExist", name, path, err, want)
			}
		}
	}
}

func TestNotAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.WriteFile(in, []byte("x"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(in, link)
	hard := filepath.Join(dir, "hard")
	os.Link(in, hard)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("y"), 0o644)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "f"), []byte("z"), 0o644)
	subLink := filepath.Join(dir, "sublink")
	os.Symlink(sub, subLink)
	for _, c := range []struct {
		out    string
		inputs []string
		bad    bool
	}{
		{in, []string{in}, true},
		{link, []string{in}, true},
		{in, []string{"", "-", link}, true},
		{hard, []string{other, in}, true},
		{other, []string{in, link, "-"}, false},
		{filepath.Join(dir, "new"), []string{in}, false},
		{"", []string{in}, false},
		// A directory input holds what is in it, and what would be.
		{filepath.Join(sub, "f"), []string{sub}, true},
		{filepath.Join(sub, "new", "f"), []string{in, subLink}, true},
		{sub, []string{sub}, true},
		{in, []string{sub}, false},
		{filepath.Join(dir, "sub2"), []string{sub}, false},
	} {
		err := NotAnInput(c.out, c.inputs...)
		if (err != nil) != c.bad {
			t.Errorf("NotAnInput(%s, %v) = %v, want error %v", c.out, c.inputs, err, c.bad)
		}
	}
}

// TestNotAnInputFollowsLinksAsWrite: whether an output is inside an input
// directory is asked where Write stores it, a ".." after a symbolic link
// being the parent of the link's target, as the kernel has it: out
// work/dl/../x, dl a link to data/sub, is data/x, inside the input data
// (inside cleaned the path as text first, work/x, and let it through).
func TestNotAnInputFollowsLinksAsWrite(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	work := filepath.Join(dir, "work")
	for _, d := range []string{filepath.Join(data, "sub"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(data, "sub"), filepath.Join(work, "dl")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(work, "dl") + "/../x"
	if err := Write(out, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "x")); err != nil {
		t.Fatalf("Write(%s) did not store data/x: %v", out, err)
	}
	if err := NotAnInput(out, data); err == nil || !strings.Contains(err.Error(), "inside the input "+data) {
		t.Errorf("NotAnInput(%s, %s) = %v; want the output inside the input", out, data, err)
	}
	// The same output is no input's when the inputs are elsewhere.
	if err := NotAnInput(out, work); err != nil {
		t.Errorf("NotAnInput(%s, %s) = %v; want nil: data/x is not in work", out, work, err)
	}
	// An output folder that is a link to a folder inside the input is
	// written into there (experiment --out work/dl wrote its results into
	// data/sub), with or without a trailing slash; so is a link, as the
	// last element, to a file inside the input (Write writes its target).
	if err := os.WriteFile(filepath.Join(data, "sub", "f"), []byte("z"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(data, "sub", "f"), filepath.Join(work, "fl")); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{filepath.Join(work, "dl"), filepath.Join(work, "dl") + "/", filepath.Join(work, "fl")} {
		if err := NotAnInput(o, data); err == nil || !strings.Contains(err.Error(), "inside the input "+data) {
			t.Errorf("NotAnInput(%s, %s) = %v; want the output inside the input", o, data, err)
		}
	}
}

// TestWriteThroughLinks: a symbolic link is kept and its target written,
// whether the target exists or not (a dangling link was replaced by a
// regular file; the shell's > and cp create the target).
func TestWriteThroughLinks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		exists bool
		chain  bool // link.json → mid.json → target.json
	}{{"to a file", true, false}, {"dangling", false, false}, {"chain to a file", true, true}, {"dangling chain", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target, link := filepath.Join(dir, "target.json"), filepath.Join(dir, "link.json")
			if tc.exists {
				if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			links := []string{link}
			if tc.chain {
				mid := filepath.Join(dir, "mid.json")
				if err := os.Symlink("target.json", mid); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("mid.json", link); err != nil {
					t.Fatal(err)
				}
				links = append(links, mid)
			} else if err := os.Symlink("target.json", link); err != nil {
				t.Fatal(err)
			}
			if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("the link %s was replaced (%v)", filepath.Base(l), err)
				}
			}
			if b, err := os.ReadFile(target); string(b) != "new" {
				t.Errorf("target holds %q (%v), want new", b, err)
			}
		})
	}
}

// TestWriteToOpenDescriptor: a path naming an open file descriptor
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N, or a link to one) is written
// through, after what the descriptor's file holds, even when that file is
// regular (issue: "greedytl fit --out /dev/stdout >> log" replaced log by
// the model, and "(echo first; greedytl predict --out /dev/stdout) > f"
// lost "first").
func TestWriteToOpenDescriptor(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(fd uintptr, dir string) string
	}{
		{"/proc/self/fd", func(fd uintptr, _ string) string { return "/proc/self/fd/" + strconv.Itoa(int(fd)) }},
		{"/dev/fd", func(fd uintptr, _ string) string { return "/dev/fd/" + strconv.Itoa(int(fd)) }},
		{"a link to /proc/self/fd", func(fd uintptr, dir string) string {
			link := filepath.Join(dir, "out")
			if err := os.Symlink("/proc/self/fd/"+strconv.Itoa(int(fd)), link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "log")
			f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("first\n"); err != nil {
				t.Fatal(err)
			}
			path := tc.path(f.Fd(), dir)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s: %v", path, err)
			}
			before, _ := os.Stat(file)
			if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(file); string(b) != "first\nnew\n" {
				t.Errorf("the file holds %q, want %q", b, "first\nnew\n")
			}
			if after, err := os.Stat(file); err != nil || !os.SameFile(before, after) {
				t.Errorf("the descriptor's file was replaced (%v)", err)
			}
		})
	}
}

// TestWriteToStandardOutput: /dev/stdout and its aliases are written
// through this process's standard output, sharing its offset: what the
// process writes after lands after, not over, what Write wrote (it opened
// the file anew: "(echo first; greedytl predict --out /dev/stdout; echo
// last) > f" wrote "last" over the first scores).
func TestWriteToStandardOutput(t *testing.T) {
	for _, path := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/1"} {
		t.Run(path, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "out")
			f, err := os.Create(file) // as a shell's "> out": no O_APPEND
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			stdout := os.Stdout
			os.Stdout = f
			defer func() { os.Stdout = stdout }()
			f.WriteString("first\n")
			if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
				t.Fatal(err)
			}
			f.WriteString("last\n")
			if b, _ := os.ReadFile(file); string(b) != "first\nnew\nlast\n" {
				t.Errorf("the file holds %q, want %q", b, "first\nnew\nlast\n")
			}
		})
	}
}

// TestRemoveTemporary: a process ending before its writers finish (a
// second signal) removes their temporary files; the interrupted Write
// fails and leaves no destination, and later Writes create nothing.
func TestRemoveTemporary(t *testing.T) {
	defer func() { temps.Lock(); temps.stopped = false; temps.Unlock() }()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- Write(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, strings.Repeat("x", 1<<20)); err != nil {
				return err
			}
			close(started)
			<-release
			return nil
		})
	}()
	<-started
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), ".out.txt.tmp-") {
		t.Fatalf("while writing: %v, want one temporary file", entries)
	}
	// A temporary directory with a finished file in it goes too.
	tmpDir, err := MkdirTemp(dir, ".set-*")
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(tmpDir, "a.txt"), func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if removed := RemoveTemporary(); len(removed) != 2 {
		t.Errorf("removed %v, want the temporary file and directory", removed)
	}
	if _, err := MkdirTemp(dir, ".set-*"); !errors.Is(err, errStopped) {
		t.Errorf("a MkdirTemp after RemoveTemporary: %v", err)
	}
	close(release)
	if err := <-done; err == nil {
		t.Error("the interrupted Write succeeded")
	}
	if err := Write(filepath.Join(dir, "later.txt"), func(io.Writer) error { return nil }); !errors.Is(err, errStopped) {
		t.Errorf("a Write after RemoveTemporary: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

// A write that ran out of room named the temporary file ("write
// dir/.out.tmp-123: no space left on device"), which the user never asked
// for: on a full disk, whether the fill's writes or the last flush fail,
// the error names the destination and no temporary file is left.
func TestWriteOnAFullDisk(t *testing.T) {
	page := os.Getpagesize()
	for _, size := range []int{3 * page, 10} { // failing in the fill's writes, then in the final flush
		dir := tmpfstest.Mount(t, page, false)
		if size < page { // the one page taken: the first write fails
			if err := os.WriteFile(filepath.Join(dir, "filler"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, "out.txt")
		err := Write(path, func(w io.Writer) error {
			_, err := w.Write(make([]byte, size))
			return err
		})
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("writing %d bytes on a full disk: %v; want no space left, naming %s and no temporary file", size, err, path)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("left %s", e.Name())
			}
		}
	}
}

// Write syncs the directory after the rename, so that the new name
// survives a power loss (it synced only the file, whose name could be
// lost): the syncs are the temporary file's, then the directory's, once
// the destination holds the new content. A directory sync that fails is
// Write's error, naming path; one that the file system does not support
// (EINVAL, ENOTSUP) is not.
func TestWriteSyncsTheDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	var synced []string
	var content []string
	fail := error(nil)
	fsync = func(f *os.File) error {
		synced = append(synced, f.Name())
		b, _ := os.ReadFile(path)
		content = append(content, string(b))
		if f.Name() == dir {
			return fail
		}
		return f.Sync()
	}
	t.Cleanup(func() { fsync = (*os.File).Sync })
	write := func(s string) error {
		return Write(path, func(w io.Writer) error { _, err := io.WriteString(w, s); return err })
	}
	if err := write("new"); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 2 || !strings.Contains(synced[0], ".out.txt.tmp-") || synced[1] != dir || content[1] != "new" {
		t.Fatalf("synced %q holding %q; want the temporary file, then %s holding the new content", synced, content, dir)
	}
	for _, c := range []struct {
		err  error
		fail bool
	}{{syscall.EIO, true}, {syscall.EINVAL, false}, {syscall.ENOTSUP, false}} {
		fail = &fs.PathError{Op: "sync", Path: dir, Err: c.err}
		err := write(c.err.Error())
		switch {
		case c.fail && (!errors.Is(err, c.err) || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), dir)):
			t.Errorf("a directory sync failing with %v: Write's error %v; want it naming %s and its directory", c.err, err, path)
		case !c.fail && err != nil:
			t.Errorf("a file system without directory syncs (%v): %v; want no error", c.err, err)
		}
		if b, _ := os.ReadFile(path); string(b) != c.err.Error() {
			t.Errorf("%s holds %q after the directory sync failed with %v; want the new content, renamed", path, b, c.err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

// MkdirAll syncs the parent of every directory it creates, outermost
// first, and nothing when the directory exists.
func TestMkdirAllSyncsParents(t *testing.T) {
	root := t.TempDir()
	var synced []string
	fsync = func(f *os.File) error { synced = append(synced, f.Name()); return f.Sync() }
	t.Cleanup(func() { fsync = (*os.File).Sync })
	a := filepath.Join(root, "a")
	deep := filepath.Join(a, "b", "c")
	if err := MkdirAll(deep); err != nil {
		t.Fatal(err)
	}
	if want := []string{root, a, filepath.Join(a, "b")}; strings.Join(synced, "\n") != strings.Join(want, "\n") {
		t.Errorf("synced %q; want %q", synced, want)
	}
	if fi, err := os.Stat(deep); err != nil || !fi.IsDir() {
		t.Fatalf("%s: %v", deep, err)
	}
	synced = nil
	if err := MkdirAll(deep); err != nil || synced != nil {
		t.Errorf("MkdirAll of an existing directory: %v, synced %q", err, synced)
	}
}

// TestCheckSaysWhatWriteWould: Check refuses, with Write's own error and
// without writing, what Write would refuse before writing (a file on a
// read-only file system, a directory, a missing directory), and passes
// what it would write; CheckDir refuses a directory that cannot be written
// into or created, naming it and the existing directory above it it would
// be created in, and a file where a directory should be, which it let
// pass.
func TestCheckSaysWhatWriteWould(t *testing.T) {
	ro := tmpfstest.Unwritable(t)
	tmp := t.TempDir()
	for _, path := range []string{filepath.Join(ro, "f"), ro, filepath.Join(tmp, "no", "f"), filepath.Join(tmp, "f")} {
		cerr := Check(path)
		werr := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
		if (cerr == nil) != (werr == nil) || cerr != nil && cerr.Error() != werr.Error() {
			t.Errorf("%s: Check %v, Write %v: want the same", path, cerr, werr)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "f")); err != nil {
		t.Error(err)
	}
	reason := "permission denied" // tmpfstest.Unwritable's 0o555 directory
	if os.Geteuid() == 0 {
		reason = "read-only file system"
	}
	file := filepath.Join(tmp, "f") // written above
	for _, tc := range []struct {
		dir, want string // want "": nil
	}{
		{ro, ro + ": " + reason},
		{filepath.Join(ro, "a", "b"), filepath.Join(ro, "a", "b") + ": cannot create it in " + ro + ": " + reason},
		{tmp, ""},
		{filepath.Join(tmp, "a", "b"), ""},
		{file, file + ": not a directory"},
		{filepath.Join(file, "a"), filepath.Join(file, "a") + ": cannot create it in " + file + ": not a directory"},
	} {
		if err := CheckDir(tc.dir); fmt.Sprint(err) != tc.want && (err != nil || tc.want != "") {
			t.Errorf("CheckDir(%s) = %v; want %q", tc.dir, err, tc.want)
		}
	}
	if ents, _ := os.ReadDir(ro); len(ents) != 0 {
		t.Errorf("%s holds %v", ro, ents)
	}
}

// TestWriteFollowsLinksAsTheKernel checks that Write stores where the
// kernel's open (a shell's "> PATH") would: a directory link's ".." is the
// parent of the link's target, and a link's relative target is read from
// the link's resolved directory; chains are followed and a loop refused.
func TestWriteFollowsLinksAsTheKernel(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.Symlink("real/sub", filepath.Join(dir, "dl")))
	must(os.Symlink("../tgt.json", filepath.Join(dir, "real", "sub", "link.json")))
	must(os.Symlink("dl/link.json", filepath.Join(dir, "c1")))
	must(os.Symlink("c1", filepath.Join(dir, "c2")))
	must(os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "loop2")))
	t.Chdir(dir)
	for path, want := range map[string]string{
		"dl/link.json":             "real/tgt.json",
		"dl/../o2.json":            "real/o2.json",
		dir + "/dl/../o3.json":     "real/o3.json",
		"c2":                       "real/tgt.json",
		"dl/../sub/../../top.json": "top.json",
	} {
		content := "written to " + path
		if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, content); return err }); err != nil {
			t.Errorf("Write(%s): %v", path, err)
			continue
		}
		if got, err := os.ReadFile(want); err != nil || string(got) != content {
			t.Errorf("Write(%s): %s holds %q (%v); want %q", path, want, got, err, content)
		}
	}
	for _, bad := range []string{"tgt.json", "o2.json", "o3.json"} {
		if _, err := os.Lstat(bad); err == nil {
			t.Errorf("%s written: a link resolved by text", bad)
		}
	}
	for _, path := range []string{"loop1", "loop1/x"} {
		err := Write(path, func(io.Writer) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "too many levels of symbolic links") {
			t.Errorf("Write(%s): %v; want too many levels of symbolic links", path, err)
		}
	}
}

// A fill that wraps the temporary file's write error (method's "writing
// … model: %w") named the temporary file ("method: writing m model: write
// dir/.out.tmp-123: no space left on device", fit --out on a full disk),
// where an unwrapped one named the destination: now the wrapped message
// names the destination too, its chain kept. The temporary file is opened
// read-only here, so that its writes fail (EBADF) without a full disk.
func TestWriteNamesTheDestinationInAWrappedError(t *testing.T) {
	openFile = func(name string, flag int, perm fs.FileMode) (*os.File, error) {
		return os.OpenFile(name, flag&^(os.O_WRONLY|os.O_RDWR), perm)
	}
	t.Cleanup(func() { openFile = os.OpenFile })
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	for _, wrap := range []bool{false, true} {
		err := Write(path, func(w io.Writer) error {
			_, err := w.Write(make([]byte, 1<<16)) // more than the buffer: reaches the file
			if wrap {
				err = fmt.Errorf("method: writing m model: %w", err)
			}
			return err
		})
		want := path + ": bad file descriptor"
		if wrap {
			want = "method: writing m model: " + want
		}
		pe := (*fs.PathError)(nil)
		if err == nil || err.Error() != want || !errors.Is(err, syscall.EBADF) {
			t.Errorf("wrapped %v: %v; want %q, an EBADF", wrap, err, want)
		} else if wrap && (!errors.As(err, &pe) || pe.Path != path) {
			t.Errorf("wrapped: errors.As finds %v, want a *fs.PathError naming %s", pe, path)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("left %v", ents)
		}
	}
}

// TestIsTemporary: Write's temporary files are recognised, with their
// destination's name; other names are not.
func TestIsTemporary(t *testing.T) {
	for name, want := range map[string]string{
		".out.json.tmp-123":    "out.json",
		".a.tmp-0":             "a",
		".x.tmp-1.tmp-4294967": "x.tmp-1",
	} {
		if dest, ok := IsTemporary(name); !ok || dest != want {
			t.Errorf("IsTemporary(%q) = %q, %v; want %q, true", name, dest, ok, want)
		}
	}
	for _, name := range []string{"out.json.tmp-123", ".tmp-123", "..tmp-1", ".out.tmp-", ".out.tmp-12a", ".out.tmp-1 ", ".lock", "results.jsonl", ""} {
		if dest, ok := IsTemporary(name); ok {
			t.Errorf("IsTemporary(%q) = %q, true; want false", name, dest)
		}
	}
}

// TestRemoveStale: the temporary files a killed Write left of files the
// caller owns are removed; other files, other destinations' temporary
// files (another command's, perhaps live), subdirectories' files,
// directories and this process's Writes in progress stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := []string{write(".model.json.tmp-42"), write(".sources.json.tmp-7")}
	keep := []string{write("model.json"), write(".lock"), write("model.json.tmp-42"), write(".x.tmp-1a"), write("models/.m.tmp-5"), write(".report.md.tmp-123")}
	if err := os.Mkdir(filepath.Join(dir, ".d.tmp-9"), 0o755); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, filepath.Join(dir, ".d.tmp-9"))
	// A Write in progress in dir, seen through a relative path.
	var inProgress string
	started, finish := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- Write(filepath.Join(dir, "busy.json"), func(w io.Writer) error {
			close(started)
			<-finish
			_, err := w.Write([]byte("done"))
			return err
		})
	}()
	<-started
	for _, e := range must(os.ReadDir(dir)) {
		if dest, ok := IsTemporary(e.Name()); ok && dest == "busy.json" {
			inProgress = filepath.Join(dir, e.Name())
		}
	}
	if inProgress == "" {
		t.Fatal("no temporary file of the Write in progress")
	}
	wd := must(os.Getwd())
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		rel = dir
	}
	removed, err := RemoveStale(rel, func(dest string) bool { return dest != "report.md" })
	close(finish)
	if werr := <-done; werr != nil {
		t.Errorf("the Write in progress failed: %v", werr)
	}
	if err != nil {
		t.Fatalf("RemoveStale: %v", err)
	}
	if len(removed) != len(stale) {
		t.Errorf("RemoveStale removed %v, want %v", removed, stale)
	}
	for _, p := range stale {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "busy.json")); err != nil || string(b) != "done" {
		t.Errorf("busy.json = %q, %v; want the Write's content", b, err)
	}
	if _, err := RemoveStale(filepath.Join(dir, "missing"), func(string) bool { return true }); err == nil {
		t.Error("RemoveStale of a missing directory: no error")
	}
}

// must returns v, panicking on err (test setup only).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
