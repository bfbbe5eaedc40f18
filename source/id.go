package source

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/modelfile"
)

// ID identifies the sources of a sources directory wherever something
// computed from them is recorded: in a model file fitted with them (its
// "sources" member) and in an experiment's run.json. It is the model
// file's record (modelfile.SourcesID, which describes its members and
// checks it: Check); Index.ID makes one and Index.Differences compares one
// with a directory.
type ID = modelfile.SourcesID

// ID returns the identity of the sources ix lists, as found in the
// directory dir.
func (ix *Index) ID(dir string) *ID {
	return &ID{Dir: dir, SHA256: ix.Identity(), Count: len(ix.Sources), DataSHA256: ix.DataSHA256, Seed: ix.Seed}
}

// Identity returns the hex SHA-256 digest of the sources the index lists:
// each source's class index and model-file digest, as the line
// "<class> <sha256>\n", in the index's order, the order of the columns of
// the scores they compute (Set.Scores). Two directories with the same
// identity compute the same scores from the same features, wherever they
// are; sources trained on other data, with another seed or other
// settings, or listed in another order have another identity. The class
// names are not part of it: they are the dataset's, whose digest the index
// records (DataSHA256).
func (ix *Index) Identity() string {
	h := sha256.New()
	for _, e := range ix.Sources {
		fmt.Fprintf(h, "%d %s\n", e.Class, e.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// namesIdentity returns the identity that model files recorded before
// they and run.json shared Identity: the digest of each source's name and
// model-file digest, each preceded by its length as a little-endian
// uint64, in the index's order. Differences accepts it, so that those
// files keep working.
func (ix *Index) namesIdentity() string {
	h := sha256.New()
	var buf []byte
	for _, e := range ix.Sources {
		for _, s := range []string{e.Name, e.SHA256} {
			buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(len(s)))
			h.Write(buf)
			h.Write([]byte(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Differences returns what distinguishes the sources ix lists from those
// that rec records (empty when they are the same sources): their count,
// the data they were trained on, their training seed, or, when these
// agree, the models themselves. rec's digest may be Identity, or the one
// that model files written before it recorded (see namesIdentity). A nil
// rec records no sources: that is the difference.
func (ix *Index) Differences(rec *ID) []string {
	if rec == nil {
		return []string{"no record of the sources to compare with (nil)"}
	}
	if rec.SHA256 == ix.Identity() || rec.SHA256 == ix.namesIdentity() {
		return nil
	}
	var d []string
	if n := len(ix.Sources); n != rec.Count {
		d = append(d, fmt.Sprintf("%s, not %d", plural.Count(n, "source", "sources"), rec.Count))
	}
	if ix.DataSHA256 != rec.DataSHA256 {
		d = append(d, fmt.Sprintf("trained on other data (data digest %s, not %s)", short(ix.DataSHA256), short(rec.DataSHA256)))
	}
	if ix.Seed != rec.Seed {
		d = append(d, fmt.Sprintf("trained with seed %d, not %d", ix.Seed, rec.Seed))
	}
	if len(d) == 0 {
		d = append(d, "other source models or another order (same count, data and seed: other classes, training settings or model files)")
	}
	return d
}

// short abbreviates a hex digest for messages.
func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}
