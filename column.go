package greedytl

import "fmt"

// Kind says whether a candidate column is a target feature (a column of X)
// or a source hypothesis (a column of H).
type Kind int

// The kinds of candidate column. Features come first in the candidate order
// (see Fit on ties).
const (
	Feature Kind = iota // a column of the target features X
	Source              // a column of the source scores H
)

// String returns "feature" or "source" ("Kind(n)", n the value, for a
// value that is neither).
func (k Kind) String() string {
	switch k {
	case Feature:
		return "feature"
	case Source:
		return "source"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText encodes k as "feature" or "source" (so JSON holds a string),
// and returns an error for any other value.
func (k Kind) MarshalText() ([]byte, error) {
	if k != Feature && k != Source {
		return nil, fmt.Errorf("invalid column kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes "feature" or "source". Its error has no package
// prefix: the model reader that decodes the kind puts its own in front.
func (k *Kind) UnmarshalText(b []byte) error {
	switch string(b) {
	case "feature":
		*k = Feature
	case "source":
		*k = Source
	default:
		return fmt.Errorf("unknown column kind %q (want \"feature\" or \"source\")", b)
	}
	return nil
}

// Column names one candidate: a column of X (Kind Feature) or of H (Kind
// Source), by its 0-based index within that matrix.
type Column struct {
	Kind  Kind `json:"kind"`
	Index int  `json:"index"`
}

// String returns e.g. "source 12".
func (c Column) String() string { return fmt.Sprintf("%v %d", c.Kind, c.Index) }

// column returns the Column of global candidate index j, where the d
// features come first and the sources follow.
func column(j, d int) Column {
	if j < d {
		return Column{Kind: Feature, Index: j}
	}
	return Column{Kind: Source, Index: j - d}
}
