// Package fitctxtest provides a context for tests of the fits' context
// checks: one that a fit cancels itself, at a chosen check.
package fitctxtest

import (
	"context"
	"sync/atomic"
)

// Countdown is a context cancelled by its own Err method: the first left
// calls of Err report nothing and the next one cancels it. A fit's checks
// of its context are Err calls, so a Countdown stops a fit at each of its
// checks in turn, deterministically; Calls counts them.
type Countdown struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
	calls  atomic.Int64
}

// NewCountdown returns a Countdown that is cancelled at its Err call
// number left+1.
func NewCountdown(left int64) *Countdown {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Countdown{Context: ctx, cancel: cancel}
	c.left.Store(left)
	return c
}

// Err counts the call, cancels the context when the countdown has run out,
// and returns the context's error.
func (c *Countdown) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) < 0 {
		c.cancel()
	}
	return c.Context.Err()
}

// Calls returns the number of Err calls so far.
func (c *Countdown) Calls() int64 { return c.calls.Load() }

// Cancelled reports whether the countdown has cancelled the context,
// without counting a call.
func (c *Countdown) Cancelled() bool { return c.Context.Err() != nil }
