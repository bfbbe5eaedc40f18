package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	for _, want := range []string{"docker push", "RepoDigests", "sed -i \"s|" + images[0][1] + "|$digest|\""} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say how to pin the image by its digest (%q)", want)
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
	for _, want := range []string{"Kubernetes 1.29", "kubectl delete job -l 'greedytl/step in (shards,merge,report)'"} {
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
	if !strings.Contains(readme, "kubectl delete job -l 'greedytl/step in (shards,merge,report)'") {
		t.Errorf("README.md has no rerun recipe deleting the Jobs")
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
// slurm-array.sh's default GREEDYTL_MEM is the shards' limit.
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
	var shardLimit float64
	for _, job := range []string{"greedytl-sources", "greedytl-shards"} {
		m := re.FindAllStringSubmatch(docs[job], -1)
		if len(m) != 2 || m[0][1] != "requests" || m[1][1] != "limits" {
			t.Fatalf("k8s-indexed-job.yaml: %s: resources %q, want requests then limits", job, m)
		}
		req, lim := quantityBytes(t, m[0][2], false), quantityBytes(t, m[1][2], false)
		if req < rule || req > 1.5*rule || lim < req || lim > 2*req {
			t.Errorf("k8s-indexed-job.yaml: %s requests %s and is limited to %s; the rule gives %.0f MB: want a request from it to 1.5 times it, and a limit from the request to twice it", job, m[0][2], m[1][2], rule/1e6)
		}
		shardLimit = lim
	}
	mem := regexp.MustCompile(`(?m)^MEM=\$\{GREEDYTL_MEM:-(\S+)\}$`).FindStringSubmatch(clusterFile(t, "slurm-array.sh"))
	if mem == nil || quantityBytes(t, mem[1], true) != shardLimit {
		t.Errorf("slurm-array.sh: default GREEDYTL_MEM %q, want the shards Job's limit (%.0f bytes)", mem, shardLimit)
	}
}
