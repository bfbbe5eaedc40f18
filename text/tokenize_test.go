package text

import (
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ,;!? \t\n", nil},
		{"What's the weather?", []string{"whats", "the", "weather"}},
		{"what’s up, DON'T", []string{"whats", "up", "dont"}},
		{"'quoted' words", []string{"quoted", "words"}},
		{"rock 'n' roll", []string{"rock", "n", "roll"}},
		{"a''b x' 'y '", []string{"a", "b", "x", "y"}},
		{"e-mail 3.5$ at 10:30", []string{"e", "mail", "3", "5", "at", "10", "30"}},
		{"snake_case", []string{"snake", "case"}},
		{"I need a car", []string{"i", "need", "a", "car"}},
		{"ÉCOLE Naïve ΣΟΦΙΑ", []string{"école", "naïve", "σοφια"}},
		{"cafe\u0301 ok", []string{"cafe\u0301", "ok"}}, // decomposed é stays whole
		{"٣ apples", []string{"٣", "apples"}},           // Arabic-Indic digit three
		{"日本語のテキスト", []string{"日本語のテキスト"}},
		{"ab\xffcd", []string{"ab", "cd"}}, // invalid UTF-8 separates
		{"x\u00a0y\u2003z", []string{"x", "y", "z"}},
	}
	for _, tc := range tests {
		if got := Tokenize(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTokenizerReuse(t *testing.T) {
	// The same tokenizer must give the same tokens whatever it held before.
	var tk tokenizer
	for _, s := range []string{"a long first document here", "Short one", "", "x"} {
		tk.split(s)
		var got []string
		for i := range tk.ends {
			got = append(got, string(tk.token(i)))
		}
		if want := Tokenize(s); !slices.Equal(got, want) {
			t.Errorf("reused tokenizer on %q: %q, want %q", s, got, want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "What's the weather?", "a''b", "cafe\u0301", "ab\xffcd", "'x'", "Σ'Σ", "İ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokenize(s)
		for _, tok := range toks {
			if tok == "" || !utf8.ValidString(tok) {
				t.Fatalf("Tokenize(%q): bad token %q", s, tok)
			}
			for _, r := range tok {
				if !isWordRune(r) {
					t.Fatalf("Tokenize(%q): token %q holds non-word rune %q", s, tok, r)
				}
			}
		}
		// Tokens are already tokens: re-tokenising their space-joined form is
		// the identity when lower-casing is idempotent on them.
		joined := strings.Join(toks, " ")
		if strings.Map(unicode.ToLower, joined) == joined {
			if again := Tokenize(joined); !slices.Equal(again, toks) {
				t.Fatalf("Tokenize(%q) = %q, but re-tokenised %q", s, toks, again)
			}
		}
	})
}

func TestFNVMatchesStdlib(t *testing.T) {
	known := map[string]uint64{ // published FNV-1a 64-bit test vectors
		"":       0xcbf29ce484222325,
		"a":      0xaf63dc4c8601ec8c,
		"foobar": 0x85944171f73967e8,
	}
	for s, want := range known {
		if got := fnvAdd(fnvOffset64, []byte(s)); got != want {
			t.Errorf("fnv(%q) = %#x, want %#x", s, got, want)
		}
	}
	for _, s := range []string{"the", "whats the", "σοφια", "x y z"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got := fnvAdd(fnvOffset64, []byte(s)); got != h.Sum64() {
			t.Errorf("fnv(%q) = %#x, hash/fnv gives %#x", s, got, h.Sum64())
		}
	}
}

func TestEachHashMatchesEachGram(t *testing.T) {
	var tk tokenizer
	var scratch []byte
	for _, doc := range []string{"", "one", "the cat sat on the mat", "What's   up, ΣΟΦΙΑ?"} {
		tk.split(doc)
		var grams []string
		tk.eachGram(&scratch, func(g []byte) { grams = append(grams, string(g)) })
		var hashes []uint64
		tk.eachHash(func(h uint64) { hashes = append(hashes, h) })
		toks := Tokenize(doc)
		var want []string
		for i, tok := range toks {
			want = append(want, tok)
			if i > 0 {
				want = append(want, toks[i-1]+" "+tok)
			}
		}
		if !slices.Equal(grams, want) {
			t.Fatalf("%q: n-grams %q, want %q", doc, grams, want)
		}
		if len(hashes) != len(grams) {
			t.Fatalf("%q: %d hashes for %d n-grams", doc, len(hashes), len(grams))
		}
		for k, g := range grams {
			h := fnv.New64a()
			h.Write([]byte(g))
			if hashes[k] != h.Sum64() {
				t.Errorf("%q: hash of n-gram %q is %#x, want %#x", doc, g, hashes[k], h.Sum64())
			}
		}
	}
}
