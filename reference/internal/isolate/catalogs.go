package isolate

// catalogsKept is how many catalogs a worker keeps, most recent first.
const catalogsKept = 4

// A catalogCache is the catalogs a worker holds, by key (the sha256 of the
// catalog's guest JSON). Catalogs of thousands of tools are megabytes; a
// turn runs many cells over one. The host keeps a mirror of each worker's
// cache (keys only): both sides touch it once per start, in the same
// order, so the host sends a catalog's JSON exactly when its worker does
// not hold it.
type catalogCache struct {
	keys   [][32]byte
	data   map[[32]byte][]byte
	mirror bool
}

func newCatalogCache() *catalogCache { return &catalogCache{data: map[[32]byte][]byte{}} }

func newCatalogMirror() *catalogCache { return &catalogCache{mirror: true} }

// touch records a start with catalog key, whose JSON the start carries
// (nil when it does not), and reports whether the cache held the key.
func (c *catalogCache) touch(key [32]byte, json []byte) bool {
	for i, k := range c.keys {
		if k == key {
			copy(c.keys[1:i+1], c.keys[:i])
			c.keys[0] = key
			if json != nil && !c.mirror {
				c.data[key] = json
			}
			return true
		}
	}
	if json == nil && !c.mirror {
		return false
	}
	c.keys = append([][32]byte{key}, c.keys...)
	if !c.mirror {
		c.data[key] = json
	}
	if len(c.keys) > catalogsKept {
		old := c.keys[len(c.keys)-1]
		c.keys = c.keys[:len(c.keys)-1]
		delete(c.data, old)
	}
	return false
}

// json returns a held catalog's JSON.
func (c *catalogCache) json(key [32]byte) []byte { return c.data[key] }
