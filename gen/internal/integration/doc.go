// Package integration holds the hand-written tests of the generated demo
// package github.com/toolgate/toolgate/generated: its decoders against a
// behaviour matrix, its encoders, the gate and registry over its tools, its
// exported provider definitions, its refusals, and the benchmarks of its
// decoders and of the gate's dispatch (`make bench-gate`). They use only what
// the generated package and the runtime export, as a user's code would.
//
// They live here, not in generated/, so that generated/ holds exactly what
// `toolgate generate` writes. The repository's top level is fixed by the
// design (no internal/ there), so the package sits under gen/internal with
// the generator's other test-only packages. The package has no code of its
// own: everything is in its _test.go files.
package integration
