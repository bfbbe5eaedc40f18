package clinc150

import "testing"

// TestCountsAreTheData: the constants Intents, DomainCount,
// IntentsPerDomain and Queries are the embedded data's.
func TestCountsAreTheData(t *testing.T) {
	queries, domains, err := Raw()
	if err != nil {
		t.Fatal(err)
	}
	if len(queries) != Queries {
		t.Errorf("%d queries, Queries = %d", len(queries), Queries)
	}
	if len(domains) != DomainCount {
		t.Errorf("%d domains, DomainCount = %d", len(domains), DomainCount)
	}
	intents := 0
	for d, list := range domains {
		intents += len(list)
		if len(list) != IntentsPerDomain {
			t.Errorf("domain %q has %d intents, IntentsPerDomain = %d", d, len(list), IntentsPerDomain)
		}
	}
	if intents != Intents {
		t.Errorf("%d intents, Intents = %d", intents, Intents)
	}
	seen := map[string]bool{}
	for _, q := range queries {
		if q.Intent != OOS {
			seen[q.Intent] = true
		}
	}
	if len(seen) != Intents {
		t.Errorf("the queries have %d intents, Intents = %d", len(seen), Intents)
	}
}
