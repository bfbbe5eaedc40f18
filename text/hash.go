package text

// FNV-1a 64-bit parameters (the same as hash/fnv.New64a, inlined so that a
// bigram's hash continues from its first token's without allocating).
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// fnvAdd continues the FNV-1a 64-bit hash h over the bytes of b.
func fnvAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime64
	}
	return h
}

// fnvAddByte continues the FNV-1a 64-bit hash h over one byte.
func fnvAddByte(h uint64, c byte) uint64 {
	return (h ^ uint64(c)) * fnvPrime64
}

// mix is MurmurHash3's 64-bit finaliser (fmix64), a bijection of uint64
// whose every output bit depends on every input bit.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// bucket returns the column and the sign (+1 or −1) of an n-gram whose
// FNV-1a 64-bit hash is h, in a hashing space of dim columns: with
// m = mix(h), the column is m mod dim and the sign is negative when m's top
// bit is set.
//
// Taking h mod dim directly would be poor: the low k bits of FNV-1a depend
// only on the low k bits of its state, so for dim = 2^k, whenever the
// unigrams "a" and "c" share a column, so does every pair of bigrams "a b"
// and "c b" (TestCorrelatedCollisions).
func bucket(h uint64, dim int) (col int, sign float64) {
	m := mix(h)
	col = int(m % uint64(dim))
	if m>>63 != 0 {
		return col, -1
	}
	return col, 1
}
