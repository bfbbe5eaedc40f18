package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/linear"
	"github.com/spf13/cobra"
)

// subcommand returns the root command's subcommand name.
func subcommand(t *testing.T, name string) *cobra.Command {
	t.Helper()
	for _, c := range newRootCmd(&streams{}).Commands() {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no command %s", name)
	return nil
}

// TestDefaultsAreTheirOwners: the CLI's defaults and the numbers its
// help states come from the packages that own them: --ways is
// experiment.DefaultWays, --l1-ratio linear.DefaultL1Ratio, demo --full's
// splits experiment's default, the demo's counts clinc150's, and train's
// model-size rule its constants.
func TestDefaultsAreTheirOwners(t *testing.T) {
	ways := experiment.DefaultWays()
	parts := make([]string, len(ways))
	for k, w := range ways {
		parts[k] = strconv.Itoa(w)
	}
	if got, want := subcommand(t, "experiment").Flags().Lookup("ways").DefValue, "["+strings.Join(parts, ",")+"]"; got != want {
		t.Errorf("experiment --ways defaults to %q, experiment.DefaultWays is %q", got, want)
	}
	train := subcommand(t, "train")
	if got, want := train.Flags().Lookup("l1-ratio").DefValue, strconv.FormatFloat(linear.DefaultL1Ratio, 'g', -1, 64); got != want {
		t.Errorf("train --l1-ratio defaults to %q, linear.DefaultL1Ratio is %q", got, want)
	}
	long := strings.Join(strings.Fields(train.Long), " ")
	if p := fmt.Sprintf("above %s and more than %d times the number of non-zero values", groupDigits(autoMaxFeatures), featuresPerNNZ); !strings.Contains(long, p) {
		t.Errorf("greedytl help train does not say %q", p)
	}
	if u, p := train.Flags().Lookup("max-features").Usage, fmt.Sprintf("above %s that exceeds %d ×", groupDigits(autoMaxFeatures), featuresPerNNZ); !strings.Contains(u, p) {
		t.Errorf("--max-features's usage %q does not say %q", u, p)
	}
	demo := strings.Join(strings.Fields(subcommand(t, "demo").Long), " ")
	for _, p := range []string{
		fmt.Sprintf("(%d intents in %d domains;", clinc150.Intents, clinc150.DomainCount),
		fmt.Sprintf("the paper's %d splits (%.0f times as many cells)", fullSplits, float64(clinc150.Intents*fullSplits)/float64(clinc150.DomainCount*demoTargetsPerDomain*demoSplits)),
	} {
		if !strings.Contains(demo, p) {
			t.Errorf("greedytl help demo does not say %q", p)
		}
	}
}
