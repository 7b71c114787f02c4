// Package composebench holds the code toolgate generates for two tools of
// the same size, a plain object and a oneOf of three object branches told
// apart by a constant member (a tagged union), and the benchmark that
// compares their decoders (bench_test.go). Regenerate with go generate;
// gen's TestComposeBenchFresh fails when the files are stale.
package composebench

//go:generate go run ../../../cmd/toolgate generate --schemas schemas --out . --package composebench
