//go:build unix

package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/greedytl/greedytl/internal/otherusertest"
)

// skipWithoutCaps skips t, naming them and why (what root may not do
// without them), when this process lacks any of caps (see missingCaps):
// a container's root may lack them.
func skipWithoutCaps(t *testing.T, caps map[int]string, why string) {
	t.Helper()
	if missing := missingCaps(caps); len(missing) > 0 {
		t.Skipf("root without %s: %s", strings.Join(missing, " and "), why)
	}
}

// writeNew writes "new" at path.
func writeNew(path string) error {
	return Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
}

// makeFile writes "old" at path with exactly the mode perm, whatever the
// umask.
func makeFile(t *testing.T, path string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("old"), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

// TestWriteMode: a new file's mode is 0o666 less the umask, as the shell's
// "> file" and cp make it; a file replaced, or a link's target, keeps its
// permission bits whatever the umask. Every file was made 0o644 (a umask
// of 077 gave files everyone could read; a 0o600 file became 0o644).
// The umask is the process's, which every goroutine shares: no test of
// this package may call t.Parallel, lest its files be made under these.
func TestWriteMode(t *testing.T) {
	for _, c := range []struct {
		name  string
		umask int
		old   fs.FileMode // the existing file's mode; 0: none
		link  bool        // path is a link to the file
		want  fs.FileMode
	}{
		{"new, umask 022", 0o022, 0, false, 0o644},
		{"new, umask 077", 0o077, 0, false, 0o600},
		{"new, umask 002", 0o002, 0, false, 0o664},
		{"existing 0600", 0o022, 0o600, false, 0o600},
		{"existing 0664 under umask 077", 0o077, 0o664, false, 0o664},
		{"existing 0640 under umask 000", 0, 0o640, false, 0o640},
		{"a link to a 0600 file", 0o022, 0o600, true, 0o600},
		{"a dangling link, umask 077", 0o077, 0, true, 0o600},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			target, path := filepath.Join(dir, "model.json"), filepath.Join(dir, "model.json")
			if c.link {
				path = filepath.Join(dir, "link.json")
				if err := os.Symlink("model.json", path); err != nil {
					t.Fatal(err)
				}
			}
			if c.old != 0 {
				makeFile(t, target, c.old)
			}
			defer syscall.Umask(syscall.Umask(c.umask))
			if err := writeNew(path); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != c.want {
				t.Errorf("mode %#o; want %#o", got, c.want)
			}
			if b, _ := os.ReadFile(target); string(b) != "new" {
				t.Errorf("holds %q, want new", b)
			}
			if fi, err := os.Lstat(path); c.link && (err != nil || fi.Mode()&fs.ModeSymlink == 0) {
				t.Errorf("the link was replaced (%v)", err)
			}
		})
	}
}

// TestWriteKeepsGroup: a file replaced keeps its group when this user may
// give it (it took this user's group); when it may not, the group's and
// the others' bits both become what both old ones allow, so that the new
// group may do no more than anyone and no more than the old group (a
// 0o640 file of a group this user is not in must not become readable by
// this user's group; a 0o646 one not writable by it).
func TestWriteKeepsGroup(t *testing.T) {
	gid := -1
	if os.Geteuid() == 0 {
		gid = 12345
	} else if groups, err := os.Getgroups(); err == nil {
		for _, g := range groups {
			if g != os.Getegid() {
				gid = g
				break
			}
		}
	}
	if gid < 0 {
		t.Skip("no group other than this process's to give a file")
	}
	if os.Geteuid() == 0 {
		skipWithoutCaps(t, chownCaps, "it may not give a file to another group")
	}
	for _, c := range []struct {
		name      string
		old, want fs.FileMode
		chownFail bool
	}{
		{"kept", 0o640, 0o640, false},
		{"not given, 0640", 0o640, 0o600, true},
		{"not given, 0664", 0o664, 0o644, true},
		{"not given, 0646", 0o646, 0o644, true}, // not 0o666: the new group's members were others, who could not write
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "model.json")
			makeFile(t, path, c.old)
			if err := os.Chown(path, -1, gid); err != nil {
				t.Fatal(err)
			}
			wantGid := uint32(gid)
			if c.chownFail {
				fchown = func(*os.File, int, int) error { return syscall.EPERM }
				t.Cleanup(func() { fchown = (*os.File).Chown })
				wantGid = uint32(os.Getegid())
			}
			if err := writeNew(path); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Sys().(*syscall.Stat_t).Gid; got != wantGid || fi.Mode().Perm() != c.want {
				t.Errorf("group %d, mode %#o; want %d, %#o", got, fi.Mode().Perm(), wantGid, c.want)
			}
		})
	}
}

// TestWriteRefusesUnwritable: an existing file this user may not write
// (0o444; another user's 0o644) is refused with "permission denied"
// naming it, and left as it was; the rename the directory allows replaced
// it (a root-owned 0o444 file in a shared directory became another
// user's). A file this user may write (another user's 0o666) is
// replaced, keeping its mode. As root (CI), the writer is this test
// binary run as uid 65534, in a directory everyone may write.
func TestWriteRefusesUnwritable(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_WRITE"); path != "" {
		fmt.Print(writeNew(path))
		os.Exit(0)
	}
	asRoot := os.Geteuid() == 0
	dir := otherusertest.SharedDir(t, "atomicfile-shared")
	write := func(path string) string {
		if !asRoot {
			return fmt.Sprint(writeNew(path))
		}
		return otherusertest.Output(t, dir, "TestWriteRefusesUnwritable", "ATOMICFILE_WRITE="+path)
	}
	for _, c := range []struct {
		name    string
		mode    fs.FileMode
		refused bool
		root    bool // only as root: another user's file
	}{
		{"read-only", 0o444, true, false},
		{"another user's 0644", 0o644, true, true},
		{"another user's 0666", 0o666, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.root && !asRoot {
				t.Skip("another user's file needs root to make")
			}
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			makeFile(t, path, c.mode)
			before, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			got := write(path)
			after, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			switch {
			case c.refused && (got != path+": permission denied" || string(b) != "old" || !os.SameFile(before, after) || after.Mode() != before.Mode()):
				t.Errorf("writing a %#o file: %s; the file holds %q, mode %v, same %v; want %q, the file untouched",
					c.mode, got, b, after.Mode(), os.SameFile(before, after), path+": permission denied")
			case !c.refused && (got != "<nil>" || string(b) != "new" || after.Mode() != before.Mode()):
				t.Errorf("writing a %#o file this user may write: %s; the file holds %q, mode %v; want it replaced, mode kept", c.mode, got, b, after.Mode())
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("left %s", e.Name())
		}
	}
}

// TestWriteTemporaryNeverWider: the temporary file that replaces an
// existing one grants, from its creation, nothing the old file does not,
// and has the old file's mode before any content is written. It was
// created 0o666 less the umask and narrowed afterwards: another user who
// opened it in between (an inotify watcher) kept a handle that read the
// new content of a 0o600 file.
func TestWriteTemporaryNeverWider(t *testing.T) {
	for _, old := range []fs.FileMode{0o600, 0o640, 0o604} {
		t.Run(fmt.Sprintf("%#o", old), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "model.json")
			makeFile(t, path, old)
			defer syscall.Umask(syscall.Umask(0))
			var created []fs.FileMode
			openFile = func(name string, flag int, perm fs.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				if err == nil {
					if fi, err := f.Stat(); err == nil {
						created = append(created, fi.Mode().Perm())
					}
				}
				return f, err
			}
			t.Cleanup(func() { openFile = os.OpenFile })
			var before []fs.FileMode // the temporary file's mode when the content is written
			err := Write(path, func(w io.Writer) error {
				matches, _ := filepath.Glob(filepath.Join(dir, ".model.json.tmp-*"))
				for _, m := range matches {
					if fi, err := os.Stat(m); err == nil {
						before = append(before, fi.Mode().Perm())
					}
				}
				_, err := io.WriteString(w, "new")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(created) != 1 || created[0]&0o077&^old != 0 {
				t.Errorf("the temporary file was created with mode %#o; want none of the group's and others' bits that %#o lacks", created, old)
			}
			if len(before) != 1 || before[0] != old {
				t.Errorf("the temporary file had mode %#o when its content was written; want %#o", before, old)
			}
		})
	}
}

// TestWriteDoesNotFollowAPlantedLink: a symbolic link planted at the
// temporary file's name (by another user of the directory) is not
// followed: the temporary file is created anew (O_EXCL), under another
// name, and the link's target is left as it was.
func TestWriteDoesNotFollowAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	path, victim := filepath.Join(dir, "model.json"), filepath.Join(dir, "victim")
	makeFile(t, path, 0o644)
	if err := os.WriteFile(victim, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	planted := ""
	openFile = func(name string, flag int, perm fs.FileMode) (*os.File, error) {
		if planted == "" {
			planted = name
			if err := os.Symlink(victim, name); err != nil {
				t.Fatal(err)
			}
		}
		return os.OpenFile(name, flag, perm)
	}
	t.Cleanup(func() { openFile = os.OpenFile })
	if err := writeNew(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(victim)
	fi, err := os.Lstat(path)
	if string(b) != "secret" || err != nil || !fi.Mode().IsRegular() {
		t.Errorf("with a link planted at %s: the link's target holds %q (want secret); %s is %v, %v (want a regular file)", planted, b, path, fi.Mode(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("%s holds %q, want new", path, b)
	}
}

// TestWriteAsRootKeepsTheOwner: a file root replaces keeps its owner and
// group, so that its user may still replace it. It became root's, and the
// user's next write was refused ("permission denied"). The user's write is
// TestWriteRefusesUnwritable's, run as uid 65534.
func TestWriteAsRootKeepsTheOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	// A container's root may lack them: the chown below failed
	// ("operation not permitted", without CAP_CHOWN), or the write
	// ("permission denied", without CAP_DAC_OVERRIDE); CAP_FOWNER is
	// TestRootWithoutCapFownerKeepsTheOwner's.
	skipWithoutCaps(t, rootWriteCaps, "it may not give a file to another user or write that user's file")
	dir := otherusertest.SharedDir(t, "atomicfile-owner")
	path := filepath.Join(dir, "model.json")
	makeFile(t, path, 0o644)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 || fi.Mode().Perm() != 0o644 {
		t.Errorf("replaced by root: owner %d, group %d, mode %#o; want 65534, 65534, 0644", st.Uid, st.Gid, fi.Mode().Perm())
	}
	if got := otherusertest.Output(t, dir, "TestWriteRefusesUnwritable", "ATOMICFILE_WRITE="+path); got != "<nil>" {
		t.Errorf("the file's user, writing it after root: %s; want it written", got)
	}
}

// TestWriteRefusesInAStickyDirectory: in a sticky directory (/tmp) that is
// not this user's, another user's file is refused before anything is
// written, saying why, though its mode lets this user write it: only its
// owner may replace it there. The rename failed ("replacing it: operation
// not permitted"). This user's own file there is replaced, and so is
// another user's in a sticky directory of this user's. As root, the
// writer is uid 65534 (TestWriteRefusesUnwritable's).
func TestWriteRefusesInAStickyDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("another user's file needs root to make")
	}
	skipWithoutCaps(t, chownCaps, "it may not give a file to another user")
	dir := otherusertest.SharedDir(t, "atomicfile-sticky")
	if err := os.Chmod(dir, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	// A sticky directory of uid 65534's, in which it may replace any file.
	its := filepath.Join(dir, "its")
	if err := os.Mkdir(its, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(its, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(its, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		dir   string
		owner int
		want  string // "": written
	}{
		{"another user's 0666", dir, 0, ": permission denied: it belongs to another user in a sticky directory"},
		{"the user's own 0666", dir, 65534, ""},
		{"another user's 0666 in the user's directory", its, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(c.dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			makeFile(t, path, 0o666)
			if c.owner != 0 {
				if err := os.Chown(path, c.owner, c.owner); err != nil {
					t.Fatal(err)
				}
			}
			got := otherusertest.Output(t, dir, "TestWriteRefusesUnwritable", "ATOMICFILE_WRITE="+path)
			want, content := "<nil>", "new"
			if c.want != "" {
				want, content = path+c.want, "old"
			}
			if b, _ := os.ReadFile(path); got != want || string(b) != content {
				t.Errorf("uid 65534 writing %s: %s, the file holds %q; want %s, %q", path, got, b, want, content)
			}
		})
	}
	for _, d := range []string{dir, its} {
		if matches, _ := filepath.Glob(filepath.Join(d, ".*.tmp-*")); len(matches) != 0 {
			t.Errorf("left %v", matches)
		}
	}
}

// TestProtectedSymlinks: with fs.protected_symlinks set (the package's
// reader of it replaced), a link in a sticky directory that everyone may
// write, owned by neither this user nor the directory's owner, is not
// followed, as the kernel refuses a shell's "> link" (EACCES); a link of
// the directory's owner is, and with the sysctl 0 every link is.
func TestProtectedSymlinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a link to user 65534 needs root")
	}
	dir := t.TempDir()
	sticky := filepath.Join(dir, "sticky")
	if err := os.Mkdir(sticky, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sticky, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(sticky, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Skip("no chown:", err)
	}
	saved := protectedSymlinks
	t.Cleanup(func() { protectedSymlinks = saved })
	write := func() error {
		return Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	}

	protectedSymlinks = func() int { return 1 }
	want := link + ": a link of another user in a sticky directory: not followed (fs.protected_symlinks)"
	for name, err := range map[string]error{"Check": Check(link), "Write": write()} {
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %q", name, err, want)
		}
	}
	if _, err := os.Lstat(target); err == nil {
		t.Errorf("%s written through another user's link", target)
	}
	// The directory's owner's link is followed.
	if err := os.Chown(sticky, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := write(); err != nil {
		t.Errorf("a link of the directory's owner: %v", err)
	}
	os.Remove(target)
	if err := os.Chown(sticky, 0, 0); err != nil {
		t.Fatal(err)
	}
	protectedSymlinks = func() int { return 0 }
	if err := write(); err != nil {
		t.Errorf("fs.protected_symlinks 0: %v", err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("fs.protected_symlinks 0: %s not written: %v", target, err)
	}
}
