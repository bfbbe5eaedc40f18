// Package clinc150 embeds the CLINC150 intent-classification data set, so
// that greedytl's demo runs on a machine that has nothing but the
// repository, and turns it into a dataset.Folder of TF-IDF features.
//
// CLINC150 holds 23,700 short English user queries: 150 intents with 150
// queries each (100 train, 20 val, 30 test in the original split), grouped
// into 10 domains of 15 intents, plus 1,200 out-of-scope queries (intent
// OOS: 100 train, 100 val, 1,000 test), a natural pool of negatives.
//
// Raw returns the queries and domains as text. Load returns a
// dataset.Folder with one class per intent (alphabetical) and OOS last, the
// domain of each class as its group, and the features of package text
// (hashed unigram+bigram TF-IDF, DefaultDim columns unless Options.Dim says
// otherwise); Vectorizer returns the fitted featuriser for new text.
//
//	f, err := clinc150.Load(clinc150.Options{PerClass: 50})
//	// f.X is 8,700 × 1,024, f.Classes[150] == "oos", f.Groups[i] is a domain
//
// # Data and licence
//
// The data is a re-encoding of data/data_full.json and data/domains.json of
// the public repository github.com/clinc/oos-eval, gzip-compressed in
// data/clinc150.json.gz (about 250 kB); the queries are unchanged. It is
// licensed under CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/).
// Attribution: S. Larson et al., "An Evaluation Dataset for Intent
// Classification and Out-of-Scope Prediction", EMNLP-IJCNLP 2019. See
// data/README.md. The file is rebuilt from the originals with
// `go generate` (the generator is in internal/gen).
package clinc150
