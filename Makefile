# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10

.PHONY: all generate check lint calls test vet fmt-check unit examples-test bench

all: test

# Regenerate generated/ and the catalog schemas/CATALOG.md from schemas/.
generate:
	$(GO) run ./cmd/toolgate generate --catalog schemas/CATALOG.md

# Fail with a diff when generated/ or the catalog is stale.
check:
	$(GO) run ./cmd/toolgate check --catalog schemas/CATALOG.md

# Fail on any lint error or warning in schemas/ (hints are notes).
lint:
	$(GO) run ./cmd/toolgate lint --fail-on warning --min-severity warning

# Replay the recorded refund_order calls against schemas/: each must be
# decided as recorded.
calls:
	$(GO) run ./cmd/toolgate test --calls runtime/callrecord/testdata/refund_order

# Everything CI checks: vet, gofmt, unit and conformance tests of both
# modules, the lint of schemas/, the recorded calls and the drift check.
test: vet fmt-check unit examples-test lint calls check

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test ./...

examples-test:
	cd examples && $(GO) vet ./... && $(GO) test ./...

# The side-by-side decode table (README "Performance"): the decoders of the
# schemas in $(SHARED_BENCH), each wrapped as a tool file and generated into
# internal/benchside/testdata/shared (not committed), and of the demo tools,
# against encoding/json.Valid, the strict reader's skip, jsonschema two-pass
# and encoding/json strict, as medians of per-round ratios of $(BENCH_ROUNDS)
# interleaved rounds. Then the go test benchmarks of generated/; compare two
# such runs with `go run golang.org/x/perf/cmd/benchstat@latest OLD NEW`.
SHARED_BENCH ?= ../shared/bench
BENCH_ROUNDS ?= 10
BENCH_TOOLS := $(or $(TMPDIR),/tmp)/toolgate-bench-tools

bench:
	@test -d $(SHARED_BENCH) || { echo "bench: $(SHARED_BENCH) is missing"; exit 1; }
	rm -rf $(BENCH_TOOLS) && mkdir -p $(BENCH_TOOLS)
	for f in $(SHARED_BENCH)/*.schema.json; do \
		t=$$(basename $$f .schema.json); \
		printf '{"name":"%s","description":"Benchmark tool %s, the shared benchmark schema; use it only to measure decoders. Returns nothing.","parameters":%s}' \
			$$t $$t "$$(cat $$f)" > $(BENCH_TOOLS)/$$t.json || exit 1; \
	done
	$(GO) run ./cmd/toolgate generate --schemas $(BENCH_TOOLS) --out internal/benchside/testdata/shared --package shared
	$(GO) run ./internal/benchside/testdata/sidebyside -shared $(SHARED_BENCH) -rounds $(BENCH_ROUNDS) > bench-sidebyside.txt; \
		status=$$?; cat bench-sidebyside.txt; exit $$status
	$(GO) test ./generated -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt
