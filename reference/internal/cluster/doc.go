// Package cluster keeps the suspended runs of a clustered gateway in NATS
// JetStream, where every replica sees them (SPEC.md Appendix G).
//
// A run is one record in a key-value bucket, keyed by its run id. The
// parts of its state are referenced from the record by size and SHA-256:
// small ones inline, a VM image as a value of its own in the bucket, the
// largest as objects in an object store. Every change to a record is a compare-and-set on its revision,
// so two replicas can never both resume a run: the one whose claim lands
// first resumes it, and the other finds it being resumed. The cap on
// suspended runs is cluster-wide and exact: a run holds one of a fixed set
// of slot keys, which are created only when absent.
//
// The package knows nothing of what a run's parts mean; the cell encodes
// them and checks their seal. The buckets live in the NATS servers' memory,
// never on disk (SPEC.md CM-8.2). A record read from the store is untrusted:
// every malformed one is refused with an error, never followed.
package cluster
