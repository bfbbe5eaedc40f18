package source

import "fmt"

// ScoreError is the error of Set.Scores and Set.ScoresCSR when a source's
// score of a row is not finite: either a value of the row among the
// source's features is not finite (Overflow false; Column and Value name
// the first), or all are and the score overflowed float64 (Overflow true:
// finite values too large for the model's weights). Row counts the rows of
// the X that was scored from 0; a caller that scored a block of its input
// may add the block's first row to it, so that the message names the
// input's own row (Error formats the fields as they are; fmt.Errorf's %w
// makes its message at once, so add it before wrapping the error).
type ScoreError struct {
	Source   string  // the source's name
	Row      int     // the row (from 0)
	Score    float64 // the score: NaN or ±Inf
	Overflow bool    // the row's values are finite: the score overflowed
	Column   int     // the first column of the row that is not finite (when !Overflow)
	Value    float64 // that column's value (when !Overflow)
}

// Error says which source's score of which row is not finite and why.
func (e *ScoreError) Error() string {
	if e.Overflow {
		return fmt.Sprintf("source %q: the score of row %d (from 0) overflows float64 (%v): its values are finite but too large for the model's weights", e.Source, e.Row, e.Score)
	}
	return fmt.Sprintf("source %q: score of example %d is %v: X row %d column %d is %v", e.Source, e.Row, e.Score, e.Row, e.Column, e.Value)
}
