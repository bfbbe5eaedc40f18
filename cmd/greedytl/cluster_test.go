package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/source"
)

// clusterFile returns the text of docs/cluster/NAME (or, for a name with a
// slash, of that path from the repository's root).
func clusterFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "docs", "cluster", name)
	if strings.Contains(name, "/") {
		p = filepath.Join("..", "..", name)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// manifestJobs splits k8s-indexed-job.yaml into its documents, by the name
// of each (metadata.name, the first "name:" line).
func manifestJobs(t *testing.T, yaml string) map[string]string {
	t.Helper()
	docs := map[string]string{}
	for _, d := range strings.Split(yaml, "\n---\n") {
		m := regexp.MustCompile(`(?m)^  name: (\S+)$`).FindStringSubmatch(d)
		if m == nil {
			t.Fatalf("k8s-indexed-job.yaml: a document without metadata.name:\n%s", d)
		}
		docs[m[1]] = d
	}
	return docs
}

// TestClusterManifestImagePinned: every container of the Kubernetes
// manifest runs one image, named by its digest, not by a tag (":latest"
// could be pushed again in mid-run, and the shards of two binaries are two
// runs, which merge refuses); the README says how to read the digest and
// put it in the manifest, and the repository holds the Dockerfile it
// builds with a .dockerignore that lists no tracked file (git would see it
// deleted, and the build as modified).
func TestClusterManifestImagePinned(t *testing.T) {
	yaml := clusterFile(t, "k8s-indexed-job.yaml")
	images := regexp.MustCompile(`(?m)^\s*image:\s*(\S+)\s*$`).FindAllStringSubmatch(yaml, -1)
	if len(images) != 4 {
		t.Fatalf("k8s-indexed-job.yaml: %d images, want 4 (one per Job)", len(images))
	}
	for _, m := range images {
		if m[1] != images[0][1] || !strings.Contains(m[1], "@sha256:") {
			t.Errorf("k8s-indexed-job.yaml: image %s; want every Job's the same, pinned by digest (…@sha256:…)", m[1])
		}
	}
	readme := clusterFile(t, "README.md")
	pin := `sed "s|registry.example.com/greedytl@sha256:[^\"[:space:]]*|$digest|" docs/cluster/k8s-indexed-job.yaml > ~/k8s-run.yaml`
	for _, want := range []string{"docker push", "RepoDigests", pin} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say how to pin the image by its digest (%q)", want)
		}
	}
	if strings.Contains(readme, "sed -i") {
		t.Errorf("README.md edits a tracked file in place (sed -i): the next build is \"modified\", and pinning again finds no DIGEST")
	}
	checkPin(t, pin, images[0][1])
	// Every kubectl apply applies the pinned copy.
	for name, text := range map[string]string{"README.md": readme, "k8s-indexed-job.yaml": yaml} {
		for _, m := range regexp.MustCompile(`kubectl apply -f (\S+)`).FindAllStringSubmatch(text, -1) {
			if m[1] != "~/k8s-run.yaml" {
				t.Errorf("%s: %q applies %s, not the pinned ~/k8s-run.yaml", name, m[0], m[1])
			}
		}
	}
	docker := clusterFile(t, "./Dockerfile")
	if !strings.Contains(docker, "go build") || !strings.Contains(docker, "git clean") {
		t.Errorf("Dockerfile does not build greedytl from a clean copy of the checkout:\n%s", docker)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	out, err := exec.Command(git, "-C", filepath.Join("..", ".."), "ls-files").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	tracked := strings.Fields(string(out))
	for _, line := range strings.Split(clusterFile(t, "./.dockerignore"), "\n") {
		pat := strings.TrimSpace(line)
		if pat == "" || strings.HasPrefix(pat, "#") || strings.HasPrefix(pat, "!") {
			continue
		}
		for _, f := range tracked {
			if dockerIgnores(pat, f) {
				t.Errorf(".dockerignore: %q leaves out the tracked file %s", pat, f)
			}
		}
	}
}

// checkPin runs the README's pinning command pin (from the repository's
// root, HOME a temporary directory) with one digest, then after a rebuild
// with another: each time ~/k8s-run.yaml names the new digest in every
// image and nothing else differs from the manifest, whose image is image
// (the placeholder), and the tracked manifest is left as it was. sed -i
// edited it: a second pin found no placeholder and left the old digest.
func checkPin(t *testing.T, pin, image string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	root := filepath.Join("..", "..")
	tracked := clusterFile(t, "k8s-indexed-job.yaml")
	home := t.TempDir()
	for _, digest := range []string{"registry.example.com/greedytl@sha256:" + strings.Repeat("a", 64), "registry.example.com/greedytl@sha256:" + strings.Repeat("b", 64)} {
		cmd := exec.Command(sh, "-c", pin)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+home, "digest="+digest)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", pin, err, out)
		}
		b, err := os.ReadFile(filepath.Join(home, "k8s-run.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(tracked, image, digest); string(b) != want || strings.Count(string(b), digest) != 4 {
			t.Errorf("pinned to %s, ~/k8s-run.yaml is not the manifest with every image %s:\n%s", digest, digest, b)
		}
		if now := clusterFile(t, "k8s-indexed-job.yaml"); now != tracked {
			t.Fatalf("the pinning command changed the tracked k8s-indexed-job.yaml")
		}
	}
}

// dockerIgnores reports whether the .dockerignore pattern pat (anchored at
// the context's root; a leading "**/" matches in any directory; a pattern
// that names a directory leaves out what it holds) matches the path f.
func dockerIgnores(pat, f string) bool {
	pat = strings.TrimSuffix(strings.TrimPrefix(pat, "/"), "/")
	if rest, ok := strings.CutPrefix(pat, "**/"); ok {
		for _, part := range strings.Split(f, "/") {
			if m, _ := filepath.Match(rest, part); m {
				return true
			}
		}
		return false
	}
	parts := strings.Split(f, "/")
	for k := 1; k <= len(parts); k++ {
		if m, _ := filepath.Match(pat, strings.Join(parts[:k], "/")); m {
			return true
		}
	}
	return false
}

// TestClusterManifestFailurePolicies: the sources and shards Jobs ignore
// disruptions (eviction, preemption) in their retry counts, fail at once on
// exit 1 and 2 — the shards Job the index alone (FailIndex), naming its
// container — and replace a pod only once it has stopped (two pods of one
// index would share its shard directory); the header says which Kubernetes
// version that needs, and how to run a step again (delete its Job: apply
// leaves one that exists unchanged).
func TestClusterManifestFailurePolicies(t *testing.T) {
	yaml := clusterFile(t, "k8s-indexed-job.yaml")
	docs := manifestJobs(t, yaml)
	for job, want := range map[string]struct{ action, container string }{
		"greedytl-sources": {"FailJob", "train-sources"},
		"greedytl-shards":  {"FailIndex", "experiment"},
	} {
		d := docs[job]
		for _, line := range []string{
			"  podReplacementPolicy: Failed",
			"      - action: Ignore\n        onPodConditions: [{type: DisruptionTarget}]",
			"      - action: " + want.action + "\n        onExitCodes: {containerName: " + want.container + ", operator: In, values: [1, 2]}",
			"      restartPolicy: Never",
			"        - name: " + want.container + "\n",
		} {
			if !strings.Contains(d, line) {
				t.Errorf("k8s-indexed-job.yaml: %s lacks %q", job, line)
			}
		}
	}
	rerun := "kubectl delete job --cascade=foreground -l 'greedytl/step in (shards,merge,report)'"
	for _, want := range []string{"Kubernetes 1.29", rerun} {
		if !strings.Contains(yaml, want) {
			t.Errorf("k8s-indexed-job.yaml's header does not say %q", want)
		}
	}
	// The volume names a storage class (the default is often
	// ReadWriteOnce only: the claim would stay Pending), and the copy pod
	// is waited for, failing within its timeout, before exec and cp.
	if !regexp.MustCompile(`(?m)^  storageClassName: \S+`).MatchString(docs["greedytl-work"]) {
		t.Errorf("k8s-indexed-job.yaml: the claim names no storageClassName")
	}
	readme := clusterFile(t, "README.md")
	w := strings.Index(readme, "kubectl wait --for=condition=Ready pod/copy --timeout=")
	e := strings.Index(readme, "kubectl exec copy")
	if w < 0 || e < 0 || w > e {
		t.Errorf("README.md does not wait for the copy pod to be Ready before kubectl exec")
	}
	// The rerun deletes the Jobs waiting for their pods to be gone (a
	// pod still stopping holds its shard's lock: the one applied at once
	// would exit 1 on it, failing the index for good), and says why.
	for name, text := range map[string]string{"README.md": readme, "k8s-indexed-job.yaml": yaml} {
		if !strings.Contains(text, rerun) || !strings.Contains(text, "lock") {
			t.Errorf("%s has no rerun recipe deleting the Jobs with their pods (%q), saying why", name, rerun)
		}
		if regexp.MustCompile(`kubectl delete job (-l|\S+$)`).MatchString(text) {
			t.Errorf("%s deletes a Job without waiting for its pods (--cascade=foreground)", name)
		}
	}
	checkCopyWaits(t, readme)
}

// checkCopyWaits runs the README's copy block (the sh block that makes
// pod/copy) against a kubectl that logs its calls and whose wait for the
// pod succeeds or fails: failing, the block describes the claim and the
// pod and copies nothing (it went on to kubectl exec and cp); succeeding,
// it copies.
func checkCopyWaits(t *testing.T, readme string) {
	t.Helper()
	var block string
	for _, b := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(readme, -1) {
		if strings.Contains(b[1], "kubectl run copy") {
			block = b[1]
		}
	}
	if block == "" {
		t.Fatal("README.md: no sh block runs the copy pod")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	kubectl := "#!" + sh + "\necho \"kubectl $1\" >> \"$LOG\"\n[ \"$1\" != wait ] || exit \"$WAIT\"\n"
	if err := os.WriteFile(filepath.Join(bin, "kubectl"), []byte(kubectl), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, wait := range []string{"1", "0"} {
		os.Remove(log)
		cmd := exec.Command(sh, "-c", block)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LOG="+log, "WAIT="+wait, "HOME="+bin)
		cmd.CombinedOutput()
		b, _ := os.ReadFile(log)
		calls := strings.Fields(strings.ReplaceAll(string(b), "kubectl ", ""))
		copied := slices.Contains(calls, "exec") || slices.Contains(calls, "cp")
		described := slices.Contains(calls, "describe")
		if copied != (wait == "0") || described != (wait == "1") {
			t.Errorf("README.md's copy block, kubectl wait exiting %s: kubectl %q; want the copy only once the pod is Ready, else the descriptions", wait, calls)
		}
	}
}

// quantityBytes returns the bytes of a Kubernetes memory quantity ("384Mi",
// "2Gi", "500M") or of a Slurm --mem ("768M": MiB, "3G": GiB).
func quantityBytes(t *testing.T, q string, slurm bool) float64 {
	t.Helper()
	units := map[string]float64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "K": 1e3, "M": 1e6, "G": 1e9}
	if slurm {
		units = map[string]float64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
	}
	for u, f := range units {
		if n, ok := strings.CutSuffix(q, u); ok {
			if v, err := strconv.ParseFloat(n, 64); err == nil && (len(u) == 2 || !strings.HasSuffix(n, "i")) {
				return v * f
			}
		}
	}
	t.Fatalf("memory quantity %q", q)
	return 0
}

// TestClusterManifestMemory: the memory the manifest requests follows
// README.md's rule — 2 × the bytes of the rows a process reads (and of
// their source scores) + 300 MB — on the dataset it names, COIL-100 HOG:
// at least the rule, at most half as much again (2 GiB was six times it:
// 83 MB was measured), with a limit of at most twice the request; and
// slurm-array.sh's GREEDYTL_MEM, unset, is at least the rule
// (TestClusterSlurmMemoryFromData: on other data).
func TestClusterManifestMemory(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "coil100", "hog")
	fi, err := os.Stat(filepath.Join(dir, "features.npy"))
	if err != nil {
		t.Skipf("COIL-100 HOG not found: %v", err)
	}
	f, err := dataset.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.Dims()
	classes := len(f.Classes)
	sources := classes - int(float64(classes)*source.DefaultNegativeFraction+0.5)
	rule := 2*(float64(fi.Size())+float64(rows*sources*8)) + 300e6
	yaml := clusterFile(t, "k8s-indexed-job.yaml")
	if !strings.Contains(yaml, `"--data", "/work/data/coil100/hog"`) {
		t.Fatal("k8s-indexed-job.yaml no longer runs COIL-100 HOG: update this test's dataset")
	}
	docs := manifestJobs(t, yaml)
	re := regexp.MustCompile(`(?m)^\s*(requests|limits): \{cpu: "\d+", memory: "(\S+)"\}`)
	for _, job := range []string{"greedytl-sources", "greedytl-shards"} {
		m := re.FindAllStringSubmatch(docs[job], -1)
		if len(m) != 2 || m[0][1] != "requests" || m[1][1] != "limits" {
			t.Fatalf("k8s-indexed-job.yaml: %s: resources %q, want requests then limits", job, m)
		}
		req, lim := quantityBytes(t, m[0][2], false), quantityBytes(t, m[1][2], false)
		if req < rule || req > 1.5*rule || lim < req || lim > 2*req {
			t.Errorf("k8s-indexed-job.yaml: %s requests %s and is limited to %s; the rule gives %.0f MB: want a request from it to 1.5 times it, and a limit from the request to twice it", job, m[0][2], m[1][2], rule/1e6)
		}
	}
	if mem := slurmMem(t, dir); mem < rule {
		t.Errorf("slurm-array.sh: GREEDYTL_MEM from COIL-100 HOG %.0f bytes; want at least the rule, %.0f MB", mem, rule/1e6)
	}
}

// slurmMem returns the bytes of the --mem slurm-array.sh gives its tasks for
// GREEDYTL_DATA=data, GREEDYTL_MEM unset (slurm-array.sh mem).
func slurmMem(t *testing.T, data string) float64 {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, filepath.Join("..", "..", "docs", "cluster", "slurm-array.sh"), "mem")
	cmd.Env = append(os.Environ(), "GREEDYTL_DATA="+data, "GREEDYTL_MEM=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("slurm-array.sh mem, GREEDYTL_DATA=%s: %v", data, err)
	}
	return quantityBytes(t, strings.TrimSpace(string(out)), true)
}

// TestClusterSlurmMemoryFromData: unset, GREEDYTL_MEM is README.md's
// memory rule for every row of the dataset scored by a source per class
// (the bound of each task's rows), so that the data sets the docs describe
// fit: on the paper's ImageNet shape (greedytl synth 1,000 × 130 × 4,096
// float32, a features.npy of that size whose data is a hole) it is the
// rule, at least the 2,689 MB measured for train-sources unsharded and the
// rule's 1.6 GB for a train-sources shard of 8 (23,400 negatives and 125
// classes' 130 rows, 16 KB each); on the embedded CLINC150 (23,700 ×
// 1,024 float64, 150 sources) at least the rule and the 504 MB measured
// for an experiment shard. The default was 768M, sized for COIL-100 HOG:
// the ImageNet shape's tasks were killed, and Slurm does not requeue that.
func TestClusterSlurmMemoryFromData(t *testing.T) {
	dir := t.TempDir()
	const rows, dims, classes = 130000, 4096, 1000
	header := "{'descr': '<f4', 'fortran_order': False, 'shape': (130000, 4096), }"
	header += strings.Repeat(" ", 128-10-1-len(header)) + "\n"
	npy := append([]byte("\x93NUMPY\x01\x00\x80\x00"), header...)
	f, err := os.Create(filepath.Join(dir, "features.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(npy); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(len(npy)) + rows*dims*4); err != nil {
		t.Skipf("a sparse file of the ImageNet shape: %v", err)
	}
	f.Close()
	var names strings.Builder
	for k := range classes {
		names.WriteString("c" + strconv.Itoa(k) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "classes.txt"), []byte(names.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rule := 2*(float64(len(npy))+rows*dims*4+rows*classes*8) + 300e6
	shard := 2*float64(23400+125*130)*dims*4 + 300e6
	if mem := slurmMem(t, dir); mem < rule || mem > rule+(1<<20) || mem < 2689e6 || mem < shard {
		t.Errorf("ImageNet shape: GREEDYTL_MEM %.0f MB; want the rule, %.0f MB (a train-sources shard of 8: %.0f MB)", mem/1e6, rule/1e6, shard/1e6)
	}
	clinc := 2*(23700*1024*8+23700*150*8) + 300e6
	if mem := slurmMem(t, "clinc150"); mem < clinc || mem > clinc+(1<<20) || mem < 504e6 {
		t.Errorf("clinc150: GREEDYTL_MEM %.0f MB; want the rule, %.0f MB", mem/1e6, clinc/1e6)
	}
}
