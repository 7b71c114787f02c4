# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10

.PHONY: all generate check test vet fmt-check unit examples-test integrations-test bench bench-redis

# Integrations: each is its own Go module (its dependencies never enter the
# core module's go.mod), so the root's ./... skips them; they are vetted
# and tested one by one. The Redis tests need redis-server on PATH (they
# start their own servers on loopback ports); .ci/run installs it.
INTEGRATIONS := runtime/redisreplay runtime/otelgate runtime/mcpgate

all: test

# Regenerate generated/ from schemas/.
generate:
	$(GO) run ./cmd/toolgate generate

# Fail with a diff when generated/ is stale.
check:
	$(GO) run ./cmd/toolgate check

# Everything CI checks: vet, gofmt, unit and conformance tests of the core
# and examples modules and of every integration module, and the drift check.
test: vet fmt-check unit examples-test integrations-test check

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test ./...

examples-test:
	cd examples && $(GO) vet ./... && $(GO) test ./...

integrations-test:
	@set -e; for m in $(INTEGRATIONS); do \
		echo "== $$m"; (cd $$m && $(GO) vet ./... && $(GO) test ./...); \
	done

# Benchmarks of the generated decoders against json.Valid and the two-pass
# path; compare runs with benchstat (go run golang.org/x/perf/cmd/benchstat).
bench:
	$(GO) test ./generated -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt

# Dispatch overhead of the Redis replay store against the in-memory store,
# measured in the same run; prints the ratio of the mean ns/op.
bench-redis:
	cd runtime/redisreplay && $(GO) test -run '^$$' -bench Dispatch -benchmem -count $(BENCH_COUNT) . | tee ../../bench-redisreplay.txt | \
	awk '/^BenchmarkDispatch\/memory/ {m += $$3; nm++} /^BenchmarkDispatch\/redis/ {r += $$3; nr++} {print} \
	END {if (nm && nr) printf "redis/memory dispatch time: %.1fx (%.0f ns/op against %.0f ns/op)\n", (r/nr)/(m/nm), r/nr, m/nm}'
