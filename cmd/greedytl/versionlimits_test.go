package main

import (
	"encoding/json"
	"testing"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/source"
)

// TestVersionReadersLimits: version --json reports the sources index
// version and liblinear model files' limits, the owners' constants, for
// readers in other languages (the Python package checks its copies
// against them).
func TestVersionReadersLimits(t *testing.T) {
	code, out, _ := cli(t, "", "version", "--json")
	var caps struct {
		Index       *int `json:"sources_index_version"`
		MaxClasses  *int `json:"liblinear_max_classes"`
		MaxFeatures *int `json:"liblinear_max_features"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &caps) != nil {
		t.Fatalf("version --json: exit %d, %q", code, out)
	}
	if caps.Index == nil || *caps.Index != source.IndexVersion || caps.MaxClasses == nil || *caps.MaxClasses != linear.MaxModelClasses ||
		caps.MaxFeatures == nil || *caps.MaxFeatures != linear.MaxModelFeatures {
		t.Errorf("version --json: %s; want sources_index_version %d, liblinear_max_classes %d, liblinear_max_features %d",
			out, source.IndexVersion, linear.MaxModelClasses, linear.MaxModelFeatures)
	}
}
