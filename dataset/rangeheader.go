package dataset

// isRangeHeaderRow reports whether the first content line of a text
// matrix, split at sep into fields, is what HeaderAuto reads as pandas'
// column names 0, 1, …, n−1 (and drops when rows follow, recording it in
// MatrixHeader.RangeLine): n ≥ 3 of them, separated by commas or tabs,
// which pandas writes (DecodeCSV).
func isRangeHeaderRow(sep byte, fields [][]byte) bool {
	return (sep == ',' || sep == '\t') && len(fields) >= 3 && isRangeHeader(fields)
}
