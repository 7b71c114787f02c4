// Package composebench holds the code toolgate generates for the tools of
// schemas/ and the benchmarks and tests that measure their decoders
// (bench_test.go, linear_test.go): a plain object and a oneOf of three
// object branches told apart by a constant member (a tagged union), of the
// same size; a composition whose branches are tried but do not nest
// (shipment_checks); and unions nested in themselves (blocks_oneof,
// blocks_anyof, blocks_mixed), whose decoding must stay linear in the
// input. Regenerate with go generate; gen's TestComposeBenchFresh fails
// when the files are stale.
package composebench

//go:generate go run ../../../cmd/toolgate generate --schemas schemas --out . --package composebench
