package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
)

// versionJSON is what 'greedytl version --json' prints: the build, and what
// a program driving the CLI (the Python package) checks before it relies on
// it: the model file format and version that fit writes, and the methods
// fit accepts.
type versionJSON struct {
	buildinfo.Info
	ModelFormat  string   `json:"model_format"`
	ModelVersion int      `json:"model_version"`
	Methods      []string `json:"methods"`
	// MultiClass lists the native multi-class methods (fit --method with
	// labels of three or more classes also takes every binary method, one
	// against the rest).
	MultiClass []string `json:"multiclass_methods"`
	// FitReport is the version of fit --json's report (fitReport), raised
	// when it changes in a way its readers must know.
	FitReport int `json:"fit_report"`
	// FitFlags lists the long names of the flags fit takes, sorted: the
	// fit command's own (fitFlags), so that a program passing a flag that
	// older builds lack (--ignore-unused-extra) tells such a build before
	// it runs fit, which refused it as an unknown flag.
	FitFlags []string `json:"fit_flags"`
	// SourcesIndexVersion is the version of a sources directory's index
	// (source.IndexVersion) this build writes and reads.
	SourcesIndexVersion int `json:"sources_index_version"`
	// LiblinearMaxClasses and LiblinearMaxFeatures are the largest
	// nr_class and nr_feature of a liblinear model file this build reads
	// (linear.MaxModelClasses, linear.MaxModelFeatures).
	LiblinearMaxClasses  int `json:"liblinear_max_classes"`
	LiblinearMaxFeatures int `json:"liblinear_max_features"`
}

// fitFlags returns the long names of the flags of the fit command, sorted.
func fitFlags() []string {
	var names []string
	newFitCmd(&streams{}).Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// fitReportVersion is the version of fit --json's report.
const fitReportVersion = 1

// nativeMultiNames returns the registered native multi-class methods, in
// method.MultiNames' order.
func nativeMultiNames() []string {
	var names []string
	for _, n := range method.MultiNames() {
		if r, ok := method.Registered(n); ok && r.Capabilities().NativeMultiClass {
			names = append(names, n)
		}
	}
	return names
}

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print greedytl's version: module version, commit and Go version",
		Long: `Version prints the build's module version, the commit it was built from (and
whether the tree was modified) and the Go version, as model files and run.json
record them; for a build that no commit identifies (go run, -buildvcs=false,
a modified tree) also the SHA-256 of its executable, which run.json records
to tell such builds apart (experiment resumes and merge merges only runs of
one build). 'greedytl --version' prints the same line.

With --json it prints them as a JSON object ("module"; "revision" when
known — a build without VCS information has none —; "modified", true,
only for a modified tree; "go"; and "executable_sha256" for such a build) with, for programs that drive greedytl, the model file
format and version that fit writes ("model_format", "model_version") and the
registered methods that fit --method accepts ("methods", the binary ones, and
"multiclass_methods", the native multi-class ones), the version of the
report fit --json prints ("fit_report"), the flags fit takes ("fit_flags",
their long names), the version of a sources directory's index
("sources_index_version") and the largest nr_class and nr_feature of a
liblinear model file it reads ("liblinear_max_classes",
"liblinear_max_features").`,
		RunE: func(*cobra.Command, []string) error {
			info := buildinfo.ReadIdentified()
			if asJSON {
				return printJSON(s.out, versionJSON{Info: info, ModelFormat: modelfile.Format,
					ModelVersion: modelfile.Version, Methods: method.Names(),
					MultiClass: nativeMultiNames(), FitReport: fitReportVersion, FitFlags: fitFlags(),
					SourcesIndexVersion: source.IndexVersion, LiblinearMaxClasses: linear.MaxModelClasses,
					LiblinearMaxFeatures: linear.MaxModelFeatures})
			}
			_, err := fmt.Fprintln(s.out, info)
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the build information, the model file version and the methods as JSON")
	return c
}
