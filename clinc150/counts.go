package clinc150

// The embedded data's counts, for texts that state them without decoding
// the file (Raw takes tens of milliseconds; a command's help is built at
// every start). TestCountsAreTheData counts them from the data.
const (
	// Intents is the number of intents (classes other than OOS).
	Intents = 150
	// DomainCount is the number of domains (Domains' keys), each of
	// IntentsPerDomain intents.
	DomainCount = 10
	// IntentsPerDomain is the number of intents of each domain.
	IntentsPerDomain = 15
	// Queries is the number of queries, out-of-scope ones included.
	Queries = 23_700
)
