package cluster

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// transient reports whether err means that no server answered a request
// the request never reached: a stream whose leader is being elected (a
// replicated stream just made, a server that stopped) has no responder for
// a while. Such a request did nothing, so it is safe to send again; a
// timeout is not, since the request may have been carried out.
func transient(err error) bool {
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse)
}

// retrying runs op until it succeeds, fails for good, or ctx ends,
// pausing between the transient failures.
func retrying[T any](ctx context.Context, op func() (T, error)) (T, error) {
	return again(ctx, op, transient)
}

// attemptTimeout bounds one attempt of an idempotent request (idempotent).
const attemptTimeout = 5 * time.Second

// idempotent runs op, a request that is safe to repeat (a read, a create
// that tolerates existing, a put of the same value), until it succeeds,
// fails for good, or ctx ends: each attempt has attemptTimeout, and an
// attempt that times out or finds no responder is made again. A cluster of
// servers electing leaders, on a loaded machine, can take longer than one
// attempt's timeout.
func idempotent[T any](ctx context.Context, op func(ctx context.Context) (T, error)) (T, error) {
	attempt := func() (T, error) {
		actx, cancel := context.WithTimeout(ctx, attemptTimeout)
		defer cancel()
		return op(actx)
	}
	return again(ctx, attempt, func(err error) bool {
		return ctx.Err() == nil && (transient(err) || errors.Is(err, context.DeadlineExceeded))
	})
}

// again runs op until it succeeds, fails with an error retry refuses, or
// ctx ends, pausing longer after each failure.
func again[T any](ctx context.Context, op func() (T, error), retry func(error) bool) (T, error) {
	pause := 10 * time.Millisecond
	for {
		v, err := op()
		if err == nil || !retry(err) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(pause):
		}
		pause = min(2*pause, 500*time.Millisecond)
	}
}

// steadyKV is a key-value bucket whose reads and writes are sent again
// while no server answers them (transient).
type steadyKV struct{ jetstream.KeyValue }

func (kv steadyKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	return retrying(ctx, func() (jetstream.KeyValueEntry, error) { return kv.KeyValue.Get(ctx, key) })
}

func (kv steadyKV) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	return retrying(ctx, func() (uint64, error) { return kv.KeyValue.Put(ctx, key, value) })
}

func (kv steadyKV) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	return retrying(ctx, func() (uint64, error) { return kv.KeyValue.Create(ctx, key, value, opts...) })
}

func (kv steadyKV) Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error) {
	return retrying(ctx, func() (uint64, error) { return kv.KeyValue.Update(ctx, key, value, revision) })
}

func (kv steadyKV) Purge(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error {
	_, err := retrying(ctx, func() (struct{}, error) { return struct{}{}, kv.KeyValue.Purge(ctx, key, opts...) })
	return err
}
