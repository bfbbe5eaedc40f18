package modelfile

import "errors"

// SourcesID identifies the sources of a sources directory wherever
// something computed from them is recorded: in a model file fitted with
// them (its "sources" member, Header.Sources) and in an experiment's
// run.json. SHA256, the directory's identity (source.Index.Identity),
// decides whether two sets of sources are the same; Count, DataSHA256 and
// Seed only say how two sets differ; Dir is for messages. Package source
// makes one from a directory's index (source.Index.ID) and compares one
// with a directory (source.Index.Differences); it is defined here, with
// the file that records it, so that reading a model file needs no
// package that trains or scores sources. source.ID names the same type.
type SourcesID struct {
	// Dir is the directory as given when the record was made (for
	// messages only: a directory may move).
	Dir string `json:"dir"`
	// SHA256 is the identity of the sources, source.Index.Identity.
	SHA256 string `json:"sha256"`
	// Count is the number of sources; DataSHA256 and Seed are the digest
	// of the data they were trained on and the seed of their training, as
	// the directory's index records them.
	Count      int    `json:"count"`
	DataSHA256 string `json:"data_sha256"`
	Seed       uint64 `json:"seed"`
}

// Check returns an error when id, a file's record of its sources, cannot
// identify them (no digest). A nil id (no record) is valid.
func (id *SourcesID) Check() error {
	if id != nil && id.SHA256 == "" {
		return errors.New(`"sources" has no sha256 digest`)
	}
	return nil
}
