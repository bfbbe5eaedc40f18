package clinc150

import (
	_ "embed"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/greedytl/greedytl/clinc150/internal/format"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/text"
)

//go:generate go run ./internal/gen -src ../../shared/data/clinc150 -out data/clinc150.json.gz

//go:embed data/clinc150.json.gz
var embedded []byte

// OOS is the intent, class name and group name of the out-of-scope queries.
const OOS = "oos"

// DefaultDim is the number of hashed feature columns Load uses when
// Options.Dim is 0.
const DefaultDim = 1024

// maxCells caps rows × columns of the dense feature matrix (4 GiB of
// float64), so that a large Dim fails with an error instead of exhausting
// memory.
const maxCells = 1 << 29

// Query is one query of the data set.
type Query struct {
	Text   string // the user's query, lower-case English as in the original
	Intent string // one of the 150 intents, or OOS
	Split  string // the original split: "train", "val" or "test"
}

// Domains maps each of the 10 domains (such as "banking") to its 15 intents,
// as in the original domains.json.
type Domains map[string][]string

// splitOrder lists the splits of the embedded file in the order Raw returns
// them, with the split name each is reported under.
var splitOrder = []struct{ key, split string }{
	{"train", "train"}, {"val", "val"}, {"test", "test"},
	{"oos_train", "train"}, {"oos_val", "val"}, {"oos_test", "test"},
}

// Raw returns every query of the embedded copy and the domains. Queries come
// split by split (train, val, test, then the out-of-scope train, val and
// test queries), each split in the original file's order. Each call returns
// fresh slices and maps. An error means the embedded file is damaged.
func Raw() ([]Query, Domains, error) {
	f, err := format.Decode(embedded)
	if err != nil {
		return nil, nil, err
	}
	intents := make(map[string]bool)
	for d, list := range f.Domains {
		if d == "" || len(list) == 0 {
			return nil, nil, fmt.Errorf("clinc150 data: bad domain %q with %d intents", d, len(list))
		}
		for _, in := range list {
			if in == "" || in == OOS || intents[in] {
				return nil, nil, fmt.Errorf("clinc150 data: bad or repeated intent %q in domain %q", in, d)
			}
			intents[in] = true
		}
	}
	if len(f.Splits) != len(splitOrder) {
		return nil, nil, fmt.Errorf("clinc150 data: %d splits, want %d", len(f.Splits), len(splitOrder))
	}
	var queries []Query
	for _, s := range splitOrder {
		groups, ok := f.Splits[s.key]
		if !ok {
			return nil, nil, fmt.Errorf("clinc150 data: split %q missing", s.key)
		}
		oos := s.key != s.split
		for _, g := range groups {
			if oos != (g.Intent == OOS) || !oos && !intents[g.Intent] {
				return nil, nil, fmt.Errorf("clinc150 data: split %q has intent %q", s.key, g.Intent)
			}
			for _, t := range g.Texts {
				if t == "" || !utf8.ValidString(t) {
					return nil, nil, fmt.Errorf("clinc150 data: split %q, intent %q: empty or invalid text %q", s.key, g.Intent, t)
				}
				queries = append(queries, Query{Text: t, Intent: g.Intent, Split: s.split})
			}
		}
	}
	return queries, Domains(f.Domains), nil
}

// Options selects what Load returns. The zero value gives the whole data
// set with DefaultDim columns.
type Options struct {
	// Dim is the number of hashed TF-IDF columns; 0 means DefaultDim.
	// More columns mean fewer hash collisions and better separated intents:
	// trained on the train split, a nearest-centroid classifier labels the
	// test split's 150 intents with accuracy 0.753, 0.780, 0.803, 0.818 and
	// 0.837 at Dim 512, 1024, 2048, 4096 and 16384 (0.843 without hashing),
	// one-vs-rest ridge regression (λ = 1) with 0.738, 0.803, 0.837 and
	// 0.859 at Dim 512 to 4096.
	Dim int
	// PerClass, when positive, keeps only the first PerClass queries of each
	// of the 150 intents (in Raw's order: train queries first). 0 keeps all
	// 150.
	PerClass int
	// OOS, when positive, keeps only the first OOS out-of-scope queries
	// (in Raw's order). 0 keeps all 1,200.
	OOS int
}

// Load returns the embedded data set as a dataset folder:
//
//   - Classes: the 150 intents in alphabetical order, then OOS (label 150);
//   - Groups: each intent's domain, and OOS for OOS;
//   - rows sorted by label, each class's queries in Raw's order, cut to
//     opts.PerClass and opts.OOS;
//   - X: the TF-IDF features of package text (hashing mode, opts.Dim
//     columns, raw term counts, unit-norm rows), with the IDF fitted on all
//     23,700 queries whatever the cut (see Vectorizer);
//   - Dir: "embedded:clinc150"; Embedded: "the embedded CLINC150 data",
//     what messages call its features (dataset.Folder.FeaturesName).
//
// X is dense: the full set at DefaultDim takes 23,700 × 1,024 × 8 B ≈ 194 MB.
// Load returns an error for negative options, a Dim above text.MaxDim, a
// result of more than 2^29 matrix entries, and if the embedded file is
// damaged.
func Load(opts Options) (*dataset.Folder, error) {
	f, _, err := load(opts)
	return f, err
}

// Vectorizer returns the featuriser Load uses for opts, fitted on all
// 23,700 queries (opts.PerClass and opts.OOS do not change it), so that new
// text can be mapped into the same feature space: Transform of a query's
// text gives its row of Load's X.
//
// Fitting the IDF on every query, test split included, uses no labels; it
// only makes a query's features independent of how the data set is later
// split or cut. It returns Load's errors for invalid options and a damaged
// embedded file.
func Vectorizer(opts Options) (*text.Vectorizer, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	queries, _, err := Raw()
	if err != nil {
		return nil, err
	}
	return fitVectorizer(queries, opts.dim())
}

func (o Options) check() error {
	if o.Dim < 0 || o.PerClass < 0 || o.OOS < 0 {
		return fmt.Errorf("clinc150: negative option in %+v", o)
	}
	if o.Dim > text.MaxDim {
		return fmt.Errorf("clinc150: Dim %d is above text.MaxDim (%d)", o.Dim, text.MaxDim)
	}
	return nil
}

func (o Options) dim() int {
	if o.Dim == 0 {
		return DefaultDim
	}
	return o.Dim
}

func fitVectorizer(queries []Query, dim int) (*text.Vectorizer, error) {
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = q.Text
	}
	v := &text.Vectorizer{Dim: dim}
	if err := v.Fit(texts); err != nil {
		return nil, fmt.Errorf("clinc150: %w", err)
	}
	return v, nil
}

// load is Load that also returns the query behind each row.
func load(opts Options) (*dataset.Folder, []Query, error) {
	if err := opts.check(); err != nil {
		return nil, nil, err
	}
	queries, domains, err := Raw()
	if err != nil {
		return nil, nil, err
	}
	v, err := fitVectorizer(queries, opts.dim())
	if err != nil {
		return nil, nil, err
	}

	folder := &dataset.Folder{Dir: "embedded:clinc150", Embedded: "the embedded CLINC150 data"}
	domainOf := make(map[string]string)
	for d, intents := range domains {
		for _, in := range intents {
			domainOf[in] = d
			folder.Classes = append(folder.Classes, in)
		}
	}
	slices.Sort(folder.Classes)
	folder.Classes = append(folder.Classes, OOS)
	folder.Groups = make([]string, len(folder.Classes))
	label := make(map[string]int, len(folder.Classes))
	for c, name := range folder.Classes {
		label[name] = c
		folder.Groups[c] = domainOf[name]
	}
	folder.Groups[label[OOS]] = OOS

	// Rows by class, each class's queries in Raw's order, cut to the caps.
	byClass := make([][]Query, len(folder.Classes))
	for _, q := range queries {
		c := label[q.Intent]
		limit := opts.PerClass
		if q.Intent == OOS {
			limit = opts.OOS
		}
		if limit == 0 || len(byClass[c]) < limit {
			byClass[c] = append(byClass[c], q)
		}
	}
	rows := slices.Concat(byClass...)
	if len(rows)*v.Dim > maxCells {
		return nil, nil, fmt.Errorf("clinc150: %d rows × %d columns is too large a dense matrix; lower Dim or set PerClass/OOS", len(rows), v.Dim)
	}
	texts := make([]string, len(rows))
	folder.Labels = make([]int, len(rows))
	for i, q := range rows {
		texts[i] = q.Text
		folder.Labels[i] = label[q.Intent]
	}
	x, err := v.Transform(texts)
	if err != nil {
		return nil, nil, fmt.Errorf("clinc150: %w", err)
	}
	folder.X = x.Dense()
	if err := inputcheck.CheckFinite("X", folder.X); err != nil {
		return nil, nil, fmt.Errorf("clinc150: %w: a bug in package text", err)
	}
	return folder, rows, nil
}
