package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// writeParts stores the parts of a run: small ones inline, up to
// maxInlineTotal in all; larger ones up to MaxKeyPart under a key of the
// run bucket; the rest as objects. Keys and objects are named by their
// content. It returns the parts' references.
func (rs *Runs) writeParts(ctx context.Context, runID string, parts map[string][]byte) (map[string]Part, error) {
	if len(parts) > maxParts {
		return nil, fmt.Errorf("cluster: %d parts passes %d", len(parts), maxParts)
	}
	refs := make(map[string]Part, len(parts))
	inline := 0 // bytes inline so far: the record stays under maxRecordBytes
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		if !partNamePattern.MatchString(name) {
			return nil, fmt.Errorf("cluster: part name %q", name)
		}
		data := parts[name]
		p := Part{Size: len(data), Sum: sumOf(data)}
		if len(data) <= MaxInline && inline+len(data) <= maxInlineTotal {
			inline += len(data)
			p.Inline = bytes.Clone(data)
			if p.Inline == nil {
				p.Inline = []byte{}
			}
		} else if len(data) <= MaxKeyPart {
			p.Key = partKey(runID, p.Sum)
			if _, err := rs.kv.Put(ctx, p.Key, data); err != nil {
				return nil, fmt.Errorf("cluster: storing part %s of run %s: %w", name, runID, err)
			}
		} else {
			p.Object = objectName(runID, p.Sum)
			if _, err := rs.parts.PutBytes(ctx, p.Object, data); err != nil {
				return nil, fmt.Errorf("cluster: storing part %s of run %s: %w", name, runID, err)
			}
		}
		refs[name] = p
	}
	return refs, nil
}

// ReadPart returns a part's data, checked against its size and sum.
func (rs *Runs) ReadPart(ctx context.Context, p Part) ([]byte, error) {
	data := p.Inline
	if p.Key != "" {
		e, err := rs.kv.Get(ctx, p.Key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, corrupt("part key %s is missing", p.Key)
		}
		if err != nil {
			return nil, err
		}
		data = e.Value()
	}
	if p.Object != "" {
		var err error
		data, err = rs.parts.GetBytes(ctx, p.Object)
		if errors.Is(err, jetstream.ErrObjectNotFound) {
			return nil, corrupt("object %s is missing", p.Object)
		}
		if err != nil {
			return nil, err
		}
	}
	if data == nil {
		data = []byte{}
	}
	if len(data) != p.Size || sumOf(data) != p.Sum {
		return nil, corrupt("part of %d bytes does not match its size %d and sum", len(data), p.Size)
	}
	return data, nil
}

// ReadParts returns every part of r by name.
func (rs *Runs) ReadParts(ctx context.Context, r *Record) (map[string][]byte, error) {
	out := make(map[string][]byte, len(r.Parts))
	for name, p := range r.Parts {
		data, err := rs.ReadPart(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("part %s of run %s: %w", name, r.ID, err)
		}
		out[name] = data
	}
	return out, nil
}

// deleteStored deletes the keys and objects refs name, but those in keep.
// Failures are left to the buckets' MaxAge.
func (rs *Runs) deleteStored(ctx context.Context, refs map[string]Part, keep map[string]bool) {
	var wg sync.WaitGroup
	for _, p := range refs {
		switch {
		case p.Key != "" && !keep[p.Key]:
			wg.Go(func() { _ = rs.kv.Purge(ctx, p.Key) })
		case p.Object != "" && !keep[p.Object]:
			wg.Go(func() { _ = rs.parts.Delete(ctx, p.Object) })
		}
	}
	wg.Wait()
}
