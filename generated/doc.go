// Package generated is toolgate's output for the demo order-service tools
// in ../schemas: for each tool its argument struct, strict single-pass
// decoder, gate spec and provider definitions, plus Bindings and
// NewRegistry. Everything in it but this file and the *_test.go files that
// are not toolgate_contract_test.go is written by `toolgate generate`
// (`go run ./cmd/toolgate generate` from the repository root) and checked
// fresh by `toolgate check`.
package generated
